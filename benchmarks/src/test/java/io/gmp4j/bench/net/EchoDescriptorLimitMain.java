package io.gmp4j.bench.net;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A child JVM for {@link EchoDescriptorLimitTest} (under {@code ulimit -n 256}): the echo
 * server of {@code -Decho.impl} ({@code gmp4j} or {@code jdk}) fails an accept with EMFILE;
 * once descriptors are free again the client whose accept failed and new ones must be echoed.
 * Prints what it saw; exits 0 when every client was.
 */
public final class EchoDescriptorLimitMain {
    static final int NEW_CLIENTS = 5;

    public static void main(String[] args) throws Exception {
        String impl = System.getProperty("echo.impl");
        String prefix = impl.equals("jdk") ? "jdk-echo" : "echo";
        DescriptorLimitChild child = new DescriptorLimitChild();
        BenchServer server = BenchServer.start("echo", impl, 2);
        InetSocketAddress addr = server.address();
        try (Socket warm = new Socket()) {
            warm.connect(addr, 10_000);
            echoed(warm, "warm-up"); // every class of the accept and echo paths loaded
            // and of a connection's end: the server closes it at our end of stream, with
            // descriptors free (a class that cannot be loaded then is lost for good)
            warm.shutdownOutput();
            if (warm.getInputStream().read() != -1) {
                throw new IllegalStateException("the echo server sent more than the echo");
            }
        }

        List<Socket> pending = child.connectUntilAcceptFails(addr, prefix + ": accept error: ");
        child.release();

        int served = 0;
        for (Socket p : pending) { // each waited in the backlog: the server accepts it now
            served += echoed(p, "pending") ? 1 : 0; // SocketTimeoutException if never accepted
            p.close();
        }
        for (int i = 0; i < NEW_CLIENTS; i++) {
            try (Socket s = new Socket()) {
                s.connect(addr, 10_000);
                served += echoed(s, "after" + i) ? 1 : 0;
            }
        }
        int want = pending.size() + NEW_CLIENTS;
        System.out.println("served again: " + (served == want ? "all " : "") + served + " of " + want);
        server.close();
        System.exit(served == want ? 0 : 1);
    }

    /** Writes {@code text} and reads it back; whether it came back whole. */
    private static boolean echoed(Socket s, String text) throws IOException {
        s.setSoTimeout(15_000);
        byte[] want = text.getBytes(StandardCharsets.US_ASCII);
        s.getOutputStream().write(want);
        InputStream in = s.getInputStream();
        byte[] got = new byte[want.length];
        int n = 0;
        while (n < got.length) {
            int r = in.read(got, n, got.length - n);
            if (r < 0) {
                return false;
            }
            n += r;
        }
        return java.util.Arrays.equals(want, got);
    }
}
