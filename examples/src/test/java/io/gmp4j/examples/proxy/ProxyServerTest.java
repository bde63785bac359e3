package io.gmp4j.examples.proxy;

import io.gmp4j.GoRuntime;
import io.gmp4j.NoUncaughtExceptions;
import io.gmp4j.TestSupport;
import io.gmp4j.examples.proxy.ConnRecord.Outcome;
import io.gmp4j.examples.proxy.TestUpstream.Digest;
import io.gmp4j.net.DeadlineExceededException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The proxy end to end over loopback TCP: plain {@link Socket} clients, plain-Java upstreams
 * ({@link TestUpstream}), the proxy on a runtime of two Ps. Every wait is for a specific event
 * (a byte, an end of stream, a logged record), with {@link TestSupport#TIMEOUT_S} only as a
 * safety net; the one test that lets time pass on purpose (traffic in one direction outliving
 * the idle timeout) paces its sender with sleeps and synchronises on bytes.
 */
@ExtendWith(NoUncaughtExceptions.class)
class ProxyServerTest {
    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    private GoRuntime rt;
    private ProxyServer proxy;
    private final RecordingLog log = new RecordingLog();
    private final List<AutoCloseable> toClose = new ArrayList<>();

    private InetSocketAddress start(ProxyConfig cfg) throws IOException {
        rt = GoRuntime.builder().maxProcs(2).name("proxy-test").build();
        proxy = ProxyServer.start(rt, cfg, log);
        return proxy.address();
    }

    /** Listens on a free loopback port; defaults otherwise, without the stats line. */
    private static ProxyConfig config(InetSocketAddress... upstreams) {
        return ProxyConfig.of(new InetSocketAddress(LOOPBACK, 0), List.of(upstreams)).withStatsInterval(Duration.ZERO);
    }

    /** A loopback address where dials are refused until the test ends ({@link TestSupport#refusingPort}). */
    private InetSocketAddress refusedAddress() throws IOException {
        return (InetSocketAddress) closeAfter(TestSupport.refusingPort()).getLocalSocketAddress();
    }

    private <T extends AutoCloseable> T closeAfter(T c) {
        toClose.add(c);
        return c;
    }

    @AfterEach
    void stop() throws Exception {
        if (proxy != null) {
            proxy.close();
            assertTrue(proxy.awaitStopped(Duration.ofSeconds(TestSupport.TIMEOUT_S)), "proxy stopped");
            assertEquals(0, proxy.stats().active(), () -> "connections left open: " + proxy.stats());
        }
        if (rt != null) {
            rt.close();
        }
        for (AutoCloseable c : toClose) {
            c.close();
        }
    }

    // =====================================================================================
    // Bytes: checksums, counters, half-close
    // =====================================================================================

    /**
     * Payloads from 1 byte to 16 MiB, several connections at once, each sent both through the
     * proxy and straight to the echo upstream: both come back whole, and every connection's
     * logged counters and the totals are the exact byte counts.
     */
    @Test
    void checksummedTransfersThroughTheProxyEqualDirectOnesAndTheCountersAreExact() throws Exception {
        TestUpstream echo = closeAfter(TestUpstream.echo());
        InetSocketAddress addr = start(config(echo.address()));
        int big = TestSupport.stress(16 << 20, 4 << 20);
        int[] sizes = {1, 2, 1000, 32 * 1024, 32 * 1024 + 1, 200_000, 1 << 20, big};
        int copies = 2; // two connections of each size at once
        Random rnd = new Random(42);
        ExecutorService pool = Executors.newFixedThreadPool(sizes.length * copies);
        try {
            List<Future<Map.Entry<Integer, Integer>>> fs = new ArrayList<>();
            for (int size : sizes) {
                for (int k = 0; k < copies; k++) {
                    byte[] payload = new byte[size];
                    rnd.nextBytes(payload);
                    fs.add(pool.submit(() -> {
                        Digest sent = Digest.of(payload);
                        Transfer direct = transfer(echo.address(), payload);
                        Transfer proxied = transfer(addr, payload);
                        assertEquals(sent, direct.received(), "straight to the echo server, " + size + " bytes");
                        assertEquals(direct.received(), proxied.received(), "through the proxy, " + size + " bytes");
                        return Map.entry(proxied.localPort(), size);
                    }));
                }
            }
            Map<Integer, Integer> sizeByPort = new HashMap<>();
            long total = 0;
            for (Future<Map.Entry<Integer, Integer>> f : fs) {
                Map.Entry<Integer, Integer> e = f.get(TestSupport.TIMEOUT_S * 2, TimeUnit.SECONDS);
                sizeByPort.put(e.getKey(), e.getValue());
                total += e.getValue();
            }
            for (ConnRecord r : log.nextClosed(fs.size())) {
                Integer boxed = sizeByPort.remove(r.client().getPort());
                assertNotNull(boxed, () -> "a record for an unknown client: " + r.format());
                long size = boxed;
                assertEquals(Outcome.EOF, r.outcome(), r::format);
                assertEquals(echo.address(), r.upstream(), r::format);
                assertEquals(size, r.bytesUp(), r::format);
                assertEquals(size, r.bytesDown(), r::format);
            }
            ProxyStats s = proxy.stats();
            assertEquals(new ProxyStats(0, fs.size(), total, total, 0, 0, 0), s);
        } finally {
            pool.shutdownNow();
        }
    }

    /** The client shuts its write side after its request and still reads the whole reply, which the upstream sends only after that FIN. */
    @Test
    void aClientHalfCloseReachesTheUpstreamAndTheReplyStillArrives() throws Exception {
        TestUpstream digester = closeAfter(TestUpstream.start(TestUpstream::digestAfterEof));
        InetSocketAddress addr = start(config(digester.address()));
        byte[] request = new byte[300_000];
        new Random(7).nextBytes(request);
        String reply;
        try (Socket s = connect(addr)) {
            s.getOutputStream().write(request);
            s.shutdownOutput();
            BufferedReader in = new BufferedReader(new InputStreamReader(s.getInputStream(), StandardCharsets.US_ASCII));
            reply = in.readLine();
            assertNull(in.readLine(), "the reply, then the end of stream");
        }
        Digest d = Digest.of(request);
        assertEquals(d.bytes() + " " + d.sha256(), reply);
        ConnRecord r = log.nextClosed();
        assertEquals(Outcome.EOF, r.outcome(), r::format);
        assertEquals(request.length, r.bytesUp(), r::format);
        assertEquals(reply.length() + 1, r.bytesDown(), r::format);
    }

    /**
     * The upstream sends a banner and shuts its write side; the client reads the banner to the
     * end of stream, and only then sends its data, which the upstream still receives whole.
     */
    @Test
    void anUpstreamHalfCloseReachesTheClientAndTheClientCanStillSend() throws Exception {
        byte[] banner = new byte[100_000];
        new Random(8).nextBytes(banner);
        BlockingQueue<Digest> received = new LinkedBlockingQueue<>();
        TestUpstream up = closeAfter(TestUpstream.start(p -> {
            p.out.write(banner);
            p.socket.shutdownOutput();
            received.add(Digest.of(p.in));
            p.ended();
        }));
        InetSocketAddress addr = start(config(up.address()));
        byte[] upload = new byte[200_000];
        new Random(9).nextBytes(upload);
        try (Socket s = connect(addr)) {
            assertEquals(Digest.of(banner), Digest.of(s.getInputStream()), "the banner, then the upstream's FIN");
            s.getOutputStream().write(upload);
            s.shutdownOutput();
            assertEquals(Digest.of(upload), received.poll(TestSupport.TIMEOUT_S, TimeUnit.SECONDS),
                    "what the client sent after the upstream's FIN");
            assertEquals(-1, s.getInputStream().read());
        }
        ConnRecord r = log.nextClosed();
        assertEquals(Outcome.EOF, r.outcome(), r::format);
        assertEquals(upload.length, r.bytesUp(), r::format);
        assertEquals(banner.length, r.bytesDown(), r::format);
    }

    // =====================================================================================
    // Upstreams: round-robin, failover, all down
    // =====================================================================================

    /**
     * Upstreams [live1, dead, live2], six connections one after another: they start at
     * live1, dead, live2, live1, dead, live2; the two that start at the dead one fail over to
     * live2. So live1 serves 2, live2 serves 4, and there are exactly 2 failovers.
     */
    @Test
    void connectionsGoRoundRobinAndARefusingUpstreamFailsOverToTheNext() throws Exception {
        TestUpstream live1 = closeAfter(TestUpstream.echo());
        TestUpstream live2 = closeAfter(TestUpstream.echo());
        InetSocketAddress dead = refusedAddress();
        InetSocketAddress addr = start(config(live1.address(), dead, live2.address()));
        byte[] hello = "hello".getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i < 6; i++) {
            assertEquals(Digest.of(hello), transfer(addr, hello).received(), "connection " + i);
        }
        List<ConnRecord> rs = log.nextClosed(6);
        assertEquals(List.of(live1.address(), live2.address(), live2.address(), live1.address(), live2.address(),
                live2.address()), rs.stream().sorted(java.util.Comparator.comparingLong(ConnRecord::id))
                .map(ConnRecord::upstream).toList());
        assertEquals(2, live1.accepted.get());
        assertEquals(4, live2.accepted.get());
        assertEquals(2, proxy.stats().failovers());
        assertEquals(0, proxy.stats().errors());
        assertEquals(2, log.dialFailures.size());
        for (RecordingLog.DialFailure f : log.dialFailures) {
            assertEquals(dead, f.upstream());
            assertInstanceOf(ConnectException.class, f.why(), f.why()::toString);
            assertTrue(f.why().getMessage().contains("connection refused"), f.why()::toString);
        }
    }

    /** An upstream that does not answer the SYN costs the connect timeout, then the next upstream serves. */
    @Test
    void aConnectTimeoutFailsOverToTheNextUpstream() throws Exception {
        TestUpstream.BlackHole hole = closeAfter(new TestUpstream.BlackHole());
        TestUpstream live = closeAfter(TestUpstream.echo());
        Duration timeout = Duration.ofMillis(300);
        InetSocketAddress addr = start(config(hole.address(), live.address()).withConnectTimeout(timeout));
        byte[] hello = "hello".getBytes(StandardCharsets.US_ASCII);
        assertEquals(Digest.of(hello), transfer(addr, hello).received());
        ConnRecord r = log.nextClosed();
        assertEquals(live.address(), r.upstream(), r::format);
        assertTrue(r.duration().compareTo(timeout) >= 0, () -> "served before the connect timeout: " + r.format());
        RecordingLog.DialFailure f = log.dialFailures.poll();
        assertNotNull(f);
        assertEquals(hole.address(), f.upstream());
        assertInstanceOf(DeadlineExceededException.class, f.why(), f.why()::toString);
        assertEquals(1, proxy.stats().failovers());
    }

    /** Every upstream refuses: the client's connection is closed at once (end of stream or reset), it never hangs. */
    @Test
    void withEveryUpstreamDownTheClientGetsACleanClose() throws Exception {
        InetSocketAddress dead1 = refusedAddress();
        InetSocketAddress dead2 = refusedAddress();
        InetSocketAddress addr = start(config(dead1, dead2));
        try (Socket s = connect(addr)) {
            s.getOutputStream().write("anyone there?".getBytes(StandardCharsets.US_ASCII));
            assertClosedByPeer(s.getInputStream());
        }
        ConnRecord r = log.nextClosed();
        assertEquals(Outcome.NO_UPSTREAM, r.outcome(), r::format);
        assertNull(r.upstream(), r::format);
        assertTrue(r.detail().contains(ConnRecord.hostPort(dead1) + " (connection refused)")
                && r.detail().contains(ConnRecord.hostPort(dead2) + " (connection refused)"), r::format);
        assertEquals(new ProxyStats(0, 1, 0, 0, 1, 1, 0), proxy.stats());
    }

    /** An upstream that is the proxy's own address would loop (each connection dialling the proxy again): refused at start. */
    @Test
    void anUpstreamThatIsTheProxyItselfIsRecognised() throws Exception {
        InetSocketAddress loopback = new InetSocketAddress(LOOPBACK, 9000);
        assertTrue(ProxyServer.reachesListener(loopback, new InetSocketAddress(LOOPBACK, 9000)));
        assertTrue(ProxyServer.reachesListener(loopback, new InetSocketAddress("0.0.0.0", 9000)));
        assertFalse(ProxyServer.reachesListener(loopback, new InetSocketAddress(LOOPBACK, 9001)));
        InetSocketAddress wildcard = new InetSocketAddress("0.0.0.0", 9000);
        assertTrue(ProxyServer.reachesListener(wildcard, new InetSocketAddress(LOOPBACK, 9000)));
        assertTrue(ProxyServer.reachesListener(wildcard, new InetSocketAddress("127.0.0.2", 9000)));
        assertFalse(ProxyServer.reachesListener(wildcard, new InetSocketAddress("192.0.2.1", 9000)), "TEST-NET-1 is not ours");
        assertFalse(ProxyServer.reachesListener(loopback, InetSocketAddress.createUnresolved("example.invalid", 9000)));
        assertFalse(ProxyServer.reachesListener(new InetSocketAddress("192.0.2.1", 9000), new InetSocketAddress("0.0.0.0", 9000)),
                "a dial to the wildcard goes to loopback, not to another interface's listener");
    }

    /** The upstream resets mid-stream: the session ends as an error and the client is closed, not left waiting. */
    @Test
    void anUpstreamResetEndsTheConnectionAsAnError() throws Exception {
        TestUpstream resetter = closeAfter(TestUpstream.start(p -> {
            p.in.read();
            p.socket.setSoLinger(true, 0); // close sends RST
            p.ended();
            p.socket.close();
        }));
        InetSocketAddress addr = start(config(resetter.address()));
        try (Socket s = connect(addr)) {
            s.getOutputStream().write('x');
            assertClosedByPeer(s.getInputStream());
        }
        ConnRecord r = log.nextClosed();
        assertEquals(Outcome.ERROR, r.outcome(), r::format);
        assertEquals(1, proxy.stats().errors());
    }

    // =====================================================================================
    // Limits: connections, idle time
    // =====================================================================================

    /**
     * Limit 2, five clients at once, an upstream that holds each connection until a gate opens:
     * two reach the upstream, three wait in the accept backlog; once the gate opens all five
     * are served, never more than two upstream connections at once.
     */
    @Test
    void theConnectionLimitHoldsAndWaitingClientsAreServedWhenSlotsFree() throws Exception {
        CountDownLatch gate = new CountDownLatch(1);
        TestUpstream held = closeAfter(TestUpstream.start(p -> {
            TestUpstream.await(gate);
            TestUpstream.echo(p);
        }));
        int limit = 2;
        int clients = 5;
        InetSocketAddress addr = start(config(held.address()).withMaxConns(limit));
        ExecutorService pool = Executors.newFixedThreadPool(clients);
        CountDownLatch connected = new CountDownLatch(clients);
        try {
            List<Future<Digest>> fs = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                byte[] payload = ("client " + i).getBytes(StandardCharsets.US_ASCII);
                fs.add(pool.submit(() -> {
                    try (Socket s = connect(addr)) { // the kernel completes the handshake; the proxy may not accept yet
                        s.getOutputStream().write(payload);
                        s.shutdownOutput();
                        connected.countDown();
                        Digest got = Digest.of(s.getInputStream());
                        assertEquals(Digest.of(payload), got);
                        return got;
                    }
                }));
            }
            TestSupport.await(connected, () -> "clients connecting");
            TestSupport.awaitCondition(() -> held.accepted.get() == limit, () -> held.accepted + " upstream connections");
            assertEquals(limit, proxy.stats().active(), () -> "proxy " + proxy.stats());
            gate.countDown();
            for (Future<Digest> f : fs) {
                f.get(TestSupport.TIMEOUT_S, TimeUnit.SECONDS);
            }
            log.nextClosed(clients);
            assertEquals(clients, held.accepted.get());
            assertEquals(limit, held.maxOpen.get(), "most upstream connections at once");
            assertEquals(clients, proxy.stats().total());
        } finally {
            gate.countDown();
            pool.shutdownNow();
        }
    }

    /** No byte either way for the idle timeout: the proxy closes both sides. */
    @Test
    void anIdleConnectionIsClosedOnBothSides() throws Exception {
        TestUpstream echo = closeAfter(TestUpstream.echo());
        Duration idle = Duration.ofMillis(300);
        InetSocketAddress addr = start(config(echo.address()).withIdleTimeout(idle));
        try (Socket s = connect(addr)) {
            s.getOutputStream().write("ping".getBytes(StandardCharsets.US_ASCII));
            assertArrayEquals("ping".getBytes(StandardCharsets.US_ASCII), s.getInputStream().readNBytes(4));
            long quietSince = System.nanoTime();
            assertEquals(-1, s.getInputStream().read(), "the proxy closed the idle connection");
            long quiet = System.nanoTime() - quietSince;
            // The proxy's clock started at its last read, a little before ours.
            assertTrue(quiet >= idle.toNanos() / 2, () -> "closed after only " + quiet / 1_000_000 + " ms");
        }
        TestSupport.awaitCondition(() -> echo.open.get() == 0, () -> "the upstream side still open");
        ConnRecord r = log.nextClosed();
        assertEquals(Outcome.IDLE, r.outcome(), r::format);
        assertEquals(4, r.bytesUp(), r::format);
        assertEquals(4, r.bytesDown(), r::format);
        assertEquals(1, proxy.stats().idleTimeouts());
        assertEquals(0, proxy.stats().errors());
    }

    /**
     * Bytes flowing one way only (upstream to a silent client) for longer than the idle timeout
     * keep the connection open: the timeout is for both directions together.
     */
    @Test
    void trafficInOneDirectionKeepsTheConnectionOpen() throws Exception {
        int ticks = 25;
        Duration period = Duration.ofMillis(100);
        Duration idle = Duration.ofSeconds(1); // ticks * period = 2.5 idle timeouts
        TestUpstream ticker = closeAfter(TestUpstream.start(p -> {
            for (int i = 0; i < ticks; i++) {
                p.out.write('t');
                p.out.flush();
                Thread.sleep(period); // pacing: time must pass here, nothing waits on it
            }
            p.socket.shutdownOutput();
            Digest.of(p.in);
        }));
        InetSocketAddress addr = start(config(ticker.address()).withIdleTimeout(idle));
        try (Socket s = connect(addr)) {
            byte[] got = s.getInputStream().readAllBytes(); // the client never writes until the end
            assertEquals("t".repeat(ticks), new String(got, StandardCharsets.US_ASCII));
            s.shutdownOutput();
        }
        ConnRecord r = log.nextClosed();
        assertEquals(Outcome.EOF, r.outcome(), r::format);
        assertEquals(ticks, r.bytesDown(), r::format);
        assertEquals(0, proxy.stats().idleTimeouts());
    }

    // =====================================================================================
    // Stats line and shutdown
    // =====================================================================================

    @Test
    void theStatsLineIsLoggedEveryIntervalWithTheCounters() throws Exception {
        TestUpstream echo = closeAfter(TestUpstream.echo());
        InetSocketAddress addr = start(config(echo.address()).withStatsInterval(Duration.ofMillis(50)));
        ProxyStats first = log.awaitStats(s -> true);
        assertEquals(new ProxyStats(0, 0, 0, 0, 0, 0, 0), first);
        byte[] data = new byte[5000];
        transfer(addr, data);
        log.nextClosed();
        // a line taken while the connection was open may come first
        ProxyStats later = log.awaitStats(s -> s.total() == 1 && s.active() == 0);
        assertEquals(new ProxyStats(0, 1, 5000, 5000, 0, 0, 0), later);
        assertEquals("stats: active=0 total=1 up=5000 down=5000 failovers=0 errors=0 idle=0", later.format());
    }

    /** close() ends the open connections on both sides, stops listening and returns once everything stopped. */
    @Test
    void closeEndsOpenConnectionsAndStopsListening() throws Exception {
        TestUpstream echo = closeAfter(TestUpstream.echo());
        InetSocketAddress addr = start(config(echo.address()));
        try (Socket s = connect(addr)) {
            s.getOutputStream().write('x');
            assertEquals('x', s.getInputStream().read()); // the session is up
            proxy.close();
            assertTrue(proxy.awaitStopped(Duration.ZERO), "close returns once stopped");
            assertClosedByPeer(s.getInputStream());
        }
        ConnRecord r = log.nextClosed();
        assertEquals(Outcome.SHUTDOWN, r.outcome(), r::format);
        assertEquals(new ProxyStats(0, 1, 1, 1, 0, 0, 0), proxy.stats());
        TestSupport.awaitCondition(() -> echo.open.get() == 0, () -> "the upstream side still open");
        assertThrows(ConnectException.class, () -> connect(addr).close());
    }

    // =====================================================================================
    // Clients
    // =====================================================================================

    /** What one client connection got back, and its local port (the proxy's record names it). */
    record Transfer(int localPort, Digest received) {
    }

    static Socket connect(InetSocketAddress addr) throws IOException {
        Socket s = new Socket();
        s.connect(addr, (int) TimeUnit.SECONDS.toMillis(TestSupport.TIMEOUT_S));
        s.setSoTimeout((int) TimeUnit.SECONDS.toMillis(TestSupport.TIMEOUT_S));
        return s;
    }

    /** Sends {@code payload} and half-closes on one thread while reading to the end of stream on this one. */
    static Transfer transfer(InetSocketAddress addr, byte[] payload) throws Exception {
        try (Socket s = connect(addr)) {
            FutureTask<Void> send = new FutureTask<>(() -> {
                s.getOutputStream().write(payload);
                s.shutdownOutput();
                return null;
            });
            Thread.ofPlatform().daemon().name("send-" + s.getLocalPort()).start(send);
            Digest got = Digest.of(s.getInputStream());
            send.get(TestSupport.TIMEOUT_S, TimeUnit.SECONDS);
            return new Transfer(s.getLocalPort(), got);
        }
    }

    /** The peer closed: the next read is the end of stream or a reset, not a timeout. */
    static void assertClosedByPeer(InputStream in) throws IOException {
        try {
            while (in.read() >= 0) {
                // bytes sent before the close (none expected, but they are not the point)
            }
        } catch (SocketException e) {
            assertTrue(String.valueOf(e.getMessage()).toLowerCase(java.util.Locale.ROOT).contains("reset"), e::toString);
        }
    }
}
