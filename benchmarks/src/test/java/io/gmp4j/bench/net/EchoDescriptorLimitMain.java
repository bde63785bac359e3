package io.gmp4j.bench.net;

import io.gmp4j.DescriptorLimitChild;
import java.net.InetSocketAddress;
import java.net.Socket;
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
            DescriptorLimitChild.echoed(warm, "warm-up"); // every class of the accept and echo paths loaded
            // and of a connection's end: the server closes it at our end of stream, with
            // descriptors free (a class that cannot be loaded then is lost for good)
            warm.shutdownOutput();
            if (warm.getInputStream().read() != -1) {
                throw new IllegalStateException("the echo server sent more than the echo");
            }
        }

        List<Socket> pending = child.connectUntilAcceptFails(addr, prefix + ": accept error: ");
        child.release();

        boolean all = DescriptorLimitChild.echoedAgain(pending, addr, NEW_CLIENTS);
        server.close();
        System.exit(all ? 0 : 1);
    }
}
