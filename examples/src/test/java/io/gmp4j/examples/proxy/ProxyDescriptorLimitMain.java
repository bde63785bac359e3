package io.gmp4j.examples.proxy;

import io.gmp4j.GoRuntime;
import io.gmp4j.examples.DescriptorLimitChild;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;

/**
 * A child JVM for {@link ProxyDescriptorLimitTest} (under {@code ulimit -n 256}): the proxy's
 * accept fails with EMFILE; once descriptors are free again the client whose accept failed and
 * new ones must be proxied to the echo upstream. Prints what it saw; exits 0 when every client was.
 */
public final class ProxyDescriptorLimitMain {
    static final int NEW_CLIENTS = 5;

    public static void main(String[] args) throws Exception {
        DescriptorLimitChild child = new DescriptorLimitChild();
        TestUpstream echo = TestUpstream.echo();
        GoRuntime rt = GoRuntime.builder().maxProcs(2).name("proxy-emfile").build();
        ProxyConfig cfg = ProxyConfig.of(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                List.of(echo.address())).withStatsInterval(Duration.ZERO);
        ProxyServer proxy = ProxyServer.start(rt, cfg, ProxyLog.printing(System.err));
        InetSocketAddress addr = proxy.address();
        try (Socket warm = new Socket()) {
            warm.connect(addr, 10_000);
            echoed(warm, "warm-up"); // every class of the accept and copy paths loaded
        }
        // The session's end (its record is the last thing it does) ran, and loaded its classes,
        // with descriptors free: a class that cannot be loaded then is lost for good.
        if (!DescriptorLimitChild.poll(() -> child.stderr().contains("conn #1 "), 10_000)) {
            throw new IllegalStateException("the warm-up connection was not logged: " + child.stderr());
        }

        List<Socket> pending = child.connectUntilAcceptFails(addr, "proxy: accept error: ");
        child.release();

        int served = 0;
        for (Socket p : pending) { // each waited in the backlog: the proxy accepts it now
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
        proxy.close();
        System.out.println("stopped: " + proxy.awaitStopped(Duration.ofSeconds(10)));
        rt.close();
        echo.close();
        System.exit(served == want ? 0 : 1);
    }

    /** Writes {@code text} and reads it back through the proxy; whether it came back whole. */
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
        return Arrays.equals(want, got);
    }
}
