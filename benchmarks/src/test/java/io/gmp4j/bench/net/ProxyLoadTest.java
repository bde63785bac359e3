package io.gmp4j.bench.net;

import io.gmp4j.TestSupport;
import io.gmp4j.examples.proxy.ProxyStats;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The proxy benchmarks' chain in one JVM: the Netty echo server as the backend, each proxy
 * (the gmp4j proxy example and the Netty relay) in front of it, and the load client through
 * the proxy for a fraction of a second. The client's accounting must come out exact through
 * the proxy (every request answered with its own bytes, every streamed byte back with the same
 * checksum), the gmp4j proxy's own byte counters must equal what the client sent and got, and
 * a proxy whose upstream is down must fail the run, not hang it. Timings are not checked.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ProxyLoadTest {
    /** One warm-up window and two measured ones of 150 ms, with this JVM's CPU time as the "proxy's". */
    private static final WindowPlan SHORT = new WindowPlan(1, 2, 150, ProcessHandle.current().pid());

    static List<String> proxyImpls() {
        return BenchServer.PROXY_IMPLS;
    }

    @ParameterizedTest
    @MethodSource("proxyImpls")
    void echoThroughTheProxyAnswersEveryRequestWithItsOwnBytes(String impl) throws Exception {
        try (BenchServer backend = BenchServer.start("echo", "netty", 1);
             BenchServer proxy = BenchServer.startProxy(impl, 2, backend.address())) {
            EchoLoad.Outcome o = new EchoLoad(proxy.address(), 16, 2).run(SHORT, "proxy-rps-c16");
            assertTrue(o.requests() > 0, "no request was made");
            assertEquals(o.requests(), o.answers());
            assertEquals(List.of("proxy-rps-c16", "proxy-rps-c16-p99", "proxy-rps-c16-cpu"),
                    o.figures().stream().map(Figure::bench).toList());
        }
    }

    @ParameterizedTest
    @MethodSource("proxyImpls")
    void bulkThroughTheProxyGetsEveryByteBackWithTheSameChecksum(String impl) throws Exception {
        try (BenchServer backend = BenchServer.start("echo", "netty", 1);
             BenchServer proxy = BenchServer.startProxy(impl, 2, backend.address())) {
            BulkLoad.Outcome o = new BulkLoad(proxy.address(), 4, 2).run(SHORT, "proxy-bulk");
            assertTrue(o.bytesVerified() > 4L * BulkConnection.CHUNK, "too few bytes: " + o.bytesVerified());
            assertEquals(List.of("proxy-bulk", "proxy-bulk-cpu"), o.figures().stream().map(Figure::bench).toList());
        }
    }

    @Test
    void theGmpProxyForwardedExactlyTheBytesTheClientSentAndGot() throws Exception {
        try (BenchServer backend = BenchServer.start("echo", "netty", 1);
             GmpProxyServer proxy = GmpProxyServer.start(2, backend.address())) {
            EchoLoad.Outcome o = new EchoLoad(proxy.address(), 16, 2).run(SHORT, "proxy-rps-c16");
            // the client has closed its connections; the counters are exact once the proxy saw every close
            TestSupport.awaitCondition(() -> proxy.stats().active() == 0, () -> "connections still open: " + proxy.stats());
            ProxyStats s = proxy.stats();
            assertEquals(16, s.total(), s.format());
            assertEquals(o.requests() * EchoLoad.REQUEST, s.bytesUp(), s.format());
            assertEquals(o.answers() * EchoLoad.REQUEST, s.bytesDown(), s.format());
        }
    }

    @ParameterizedTest
    @MethodSource("proxyImpls")
    void aProxyWhoseUpstreamIsDownFailsTheRun(String impl) throws Exception {
        try (Socket refusing = TestSupport.refusingPort();
             BenchServer proxy = BenchServer.startProxy(impl, 1, new InetSocketAddress("127.0.0.1", refusing.getLocalPort()))) {
            LoadFailure f = assertThrows(LoadFailure.class,
                    () -> new EchoLoad(proxy.address(), 2, 1).run(SHORT, "proxy-rps-c2"));
            // the proxy closes the client (a FIN), or resets it when bytes were waiting unread
            assertTrue(f.getMessage().contains("closed the connection") || f.getMessage().contains("Connection reset"),
                    f.getMessage());
        }
    }

    @Test
    void theProxyBenchmarksNameTheirFiguresAsReported() {
        assertEquals("proxy", NetBench.serverKind("proxy-bulk"));
        assertEquals(List.of("gmp4j", "netty", "go", "direct"), NetBench.impls("proxy-rps-c16"));
        assertEquals(16, NetBench.connections("proxy-rps-c16"));
        assertEquals(256, NetBench.connections("proxy-rps-c256"));
        assertEquals(NetBench.BULK_CONNECTIONS, NetBench.connections("proxy-bulk"));
        assertEquals("proxy-p99", NetBench.figureName("proxy-rps-c16-p99"));
        assertEquals("proxy-p99-c256", NetBench.figureName("proxy-rps-c256-p99"));
        assertEquals("proxy-rps-c16-cpu", NetBench.figureName("proxy-rps-c16-cpu"));
        assertEquals("echo-c16-p99", NetBench.figureName("echo-c16-p99"));
        assertThrows(IllegalArgumentException.class, () -> BenchServer.startProxy("jdk", 1, new InetSocketAddress("127.0.0.1", 1)));
    }
}
