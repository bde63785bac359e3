package io.gmp4j.examples.proxy;

import io.gmp4j.DescriptorLimitChild;
import io.gmp4j.GoRuntime;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
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
            DescriptorLimitChild.echoed(warm, "warm-up"); // every class of the accept and copy paths loaded
        }
        // The session's end (its record is the last thing it does) ran, and loaded its classes,
        // with descriptors free: a class that cannot be loaded then is lost for good.
        if (!DescriptorLimitChild.poll(() -> child.stderr().contains("conn #1 "), 10_000)) {
            throw new IllegalStateException("the warm-up connection was not logged: " + child.stderr());
        }

        List<Socket> pending = child.connectUntilAcceptFails(addr, "proxy: accept error: ");
        child.release();

        boolean all = DescriptorLimitChild.echoedAgain(pending, addr, NEW_CLIENTS);
        proxy.close();
        System.out.println("stopped: " + proxy.awaitStopped(Duration.ofSeconds(10)));
        rt.close();
        echo.close();
        System.exit(all ? 0 : 1);
    }
}
