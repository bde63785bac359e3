package io.gmp4j.net;

import io.gmp4j.TestSupport;
import io.netty.channel.ChannelOption;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.net.ConnectException;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Half-close, deadlines, errors, and closing that wakes parked goroutines. */
class ConnTest extends NetTestBase {

    /** A connected pair over loopback: [client, server]. */
    static Conn[] pair() throws Exception {
        AtomicReference<Conn[]> ref = new AtomicReference<>();
        go(() -> {
            try (Listener l = Net.listen("127.0.0.1:0")) {
                Conn c = Net.dial(l.address());
                Conn s = l.accept();
                ref.set(new Conn[]{c, s});
            }
        });
        return ref.get();
    }

    @Test
    void halfClose() throws Exception {
        Conn[] p = pair();
        Conn c = p[0], s = p[1];
        try {
            go(() -> {
                c.write("hello".getBytes(StandardCharsets.US_ASCII));
                c.closeWrite();
                assertThrows(SocketException.class, () -> c.write(new byte[1]), "write after closeWrite");
                // the server sees the data, then EOF, and can still answer
                byte[] buf = new byte[16];
                int n = 0, k;
                while ((k = s.read(buf, n, buf.length - n)) > 0) {
                    n += k;
                }
                assertEquals("hello", new String(buf, 0, n, StandardCharsets.US_ASCII));
                assertEquals(-1, s.read(buf, 0, 1), "EOF stays");
                s.write("world".getBytes(StandardCharsets.US_ASCII));
                s.close();
                byte[] back = new byte[5];
                readFully(c, back, 0, 5);
                assertEquals("world", new String(back, StandardCharsets.US_ASCII));
                assertEquals(-1, c.read(back, 0, 1));
            });
        } finally {
            c.close();
            s.close();
        }
    }

    @Test
    void readDeadlineExpiresAndCanBeReset() throws Exception {
        Conn[] p = pair();
        Conn c = p[0], s = p[1];
        try {
            go(() -> {
                byte[] buf = new byte[8];
                // a deadline in the near future: the parked read fails when it passes
                long t0 = System.nanoTime();
                c.setReadDeadline(Instant.now().plusMillis(50));
                DeadlineExceededException e = assertThrows(DeadlineExceededException.class, () -> c.read(buf, 0, 8));
                assertTrue(System.nanoTime() - t0 >= 40_000_000L, "not before the deadline");
                assertTrue(e.getMessage().endsWith("i/o timeout"), e.getMessage());
                // a deadline in the past fails at once, every time
                c.setReadDeadline(Instant.now().minusSeconds(1));
                assertThrows(DeadlineExceededException.class, () -> c.read(buf, 0, 8));
                assertThrows(DeadlineExceededException.class, () -> c.read(buf, 0, 8));
                // cleared: the connection is usable again
                c.setReadDeadline(null);
                s.write(new byte[]{42});
                assertEquals(1, c.read(buf, 0, 8));
                assertEquals(42, buf[0]);
                // changed while parked: the reader wakes, re-checks and parks to the new deadline
                c.setReadDeadline(Instant.now().plusSeconds(30));
                Async reader = async(() -> assertEquals(1, c.read(buf, 0, 8)));
                TestSupport.awaitCondition(() -> c.reader.parkedReaders() == 1, () -> "reader never parked");
                c.setReadDeadline(Instant.now().plusSeconds(60));
                TestSupport.awaitCondition(() -> c.reader.parkedReaders() == 1, () -> "reader did not park again");
                s.write(new byte[]{7});
                reader.check();
            });
        } finally {
            c.close();
            s.close();
        }
    }

    @Test
    void pastDeadlineWakesAParkedReader() throws Exception {
        Conn[] p = pair();
        Conn c = p[0], s = p[1];
        try {
            Async reader = async(() -> assertThrows(DeadlineExceededException.class, () -> c.read(new byte[1], 0, 1)));
            TestSupport.awaitCondition(() -> c.reader.parkedReaders() == 1, () -> "reader never parked");
            c.setDeadline(Instant.now().minusMillis(1));
            reader.check();
        } finally {
            c.close();
            s.close();
        }
    }

    @Test
    void writeDeadlineAgainstAPeerThatDoesNotRead() throws Exception {
        Conn[] p = pair();
        Conn c = p[0], s = p[1];
        try {
            go(() -> {
                c.setWriteDeadline(Instant.now().plusMillis(100));
                byte[] chunk = new byte[64 * 1024];
                // the peer never reads: kernel buffers, then the watermark, then the deadline
                assertThrows(DeadlineExceededException.class, () -> {
                    while (true) {
                        c.write(chunk);
                    }
                });
                assertTrue(c.writer.writeParks > 0, "the writer parked on the watermark");
            });
        } finally {
            c.close();
            s.close();
        }
    }

    @Test
    void dialAClosedPortIsRefused() throws Exception {
        go(() -> {
            int port;
            try (Listener l = Net.listen("127.0.0.1:0")) {
                port = l.address().getPort();
            }
            ConnectException e = assertThrows(ConnectException.class, () -> Net.dial("127.0.0.1:" + port));
            assertTrue(e.getMessage().contains("connection refused"), e.getMessage());
            ConnectException e2 = assertThrows(ConnectException.class,
                    () -> Net.dial("127.0.0.1:" + port, Duration.ofSeconds(5)));
            assertTrue(e2.getMessage().contains("connection refused"), e2.getMessage());
        });
    }

    @Test
    void listenOnAPortInUseFails() throws Exception {
        go(() -> {
            try (Listener l = Net.listen("127.0.0.1:0")) {
                java.net.BindException e = assertThrows(java.net.BindException.class,
                        () -> Net.listen("127.0.0.1:" + l.address().getPort()));
                assertTrue(e.getMessage().endsWith("bind: address already in use"), e.getMessage());
            }
        });
    }

    @Test
    void aPassedReadDeadlineFailsEvenWithBytesBuffered() throws Exception {
        Conn[] p = pair();
        Conn c = p[0], s = p[1];
        try {
            go(() -> {
                s.write(new byte[]{1, 2});
                byte[] b = new byte[1];
                assertEquals(1, c.read(b, 0, 1)); // one byte read, the other buffered
                c.setReadDeadline(Instant.now().minusSeconds(1));
                assertThrows(DeadlineExceededException.class, () -> c.read(b, 0, 1));
                c.setReadDeadline(null);
                assertEquals(1, c.read(b, 0, 1));
                assertEquals(2, b[0]);
            });
        } finally {
            c.close();
            s.close();
        }
    }

    @Test
    void peerResetIsReported() throws Exception {
        try (ServerSocket ss = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            Thread peer = Thread.ofPlatform().start(() -> {
                try (Socket so = ss.accept()) {
                    so.getInputStream().read(); // wait for the client's byte, then reset
                    so.setSoLinger(true, 0);
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            go(() -> {
                try (Conn c = Net.dial("127.0.0.1:" + ss.getLocalPort())) {
                    c.write(new byte[]{1});
                    IOException e = assertThrows(IOException.class, () -> {
                        byte[] buf = new byte[16];
                        while (c.read(buf, 0, buf.length) >= 0) {
                            // drain until the reset
                        }
                    });
                    assertInstanceOf(SocketException.class, e, e.toString());
                    assertTrue(e.getMessage().contains("connection reset by peer"), e.getMessage());
                    assertThrows(SocketException.class, () -> c.read(new byte[1], 0, 1), "the error stays");
                }
            });
            peer.join(TestSupport.TIMEOUT_S * 1000);
        }
    }

    @Test
    void closingAListenerWakesAcceptWithAnError() throws Exception {
        AtomicReference<Listener> ref = new AtomicReference<>();
        go(() -> ref.set(Net.listen("127.0.0.1:0")));
        Listener l = ref.get();
        Async[] acceptors = new Async[3];
        for (int i = 0; i < acceptors.length; i++) {
            acceptors[i] = async(() -> {
                NetClosedException e = assertThrows(NetClosedException.class, l::accept);
                assertTrue(e.getMessage().endsWith("use of closed network connection"), e.getMessage());
            });
        }
        TestSupport.awaitCondition(() -> l.parkedAcceptors() == acceptors.length, () -> "acceptors never parked");
        l.close();
        for (Async a : acceptors) {
            a.check();
        }
        go(() -> assertThrows(NetClosedException.class, l::accept));
    }

    @Test
    void closingAConnWakesABlockedReader() throws Exception {
        Conn[] p = pair();
        Conn c = p[0], s = p[1];
        try {
            Async reader = async(() -> {
                NetClosedException e = assertThrows(NetClosedException.class, () -> c.read(new byte[1], 0, 1));
                assertTrue(e.getMessage().endsWith(NetClosedException.MESSAGE), e.getMessage());
            });
            TestSupport.awaitCondition(() -> c.reader.parkedReaders() == 1, () -> "reader never parked");
            c.close();
            reader.check();
            go(() -> {
                assertThrows(NetClosedException.class, () -> c.write(new byte[1]));
                // the peer sees EOF
                assertEquals(-1, s.read(new byte[1], 0, 1));
            });
        } finally {
            s.close();
        }
    }

    @Test
    void readingAheadStopsAtTheHighMarkAndLosesNothing() throws Exception {
        Conn[] p = pair();
        Conn c = p[0], s = p[1];
        int total = TestSupport.stress(16, 4) * 1024 * 1024;
        try {
            byte[] data = new byte[total];
            new java.util.SplittableRandom(7).nextBytes(data);
            java.util.concurrent.atomic.AtomicBoolean written = new java.util.concurrent.atomic.AtomicBoolean();
            java.util.concurrent.CountDownLatch mayClose = new java.util.concurrent.CountDownLatch(1);
            Async writer = async(() -> {
                c.write(data);
                written.set(true);
                // Not closed yet: a FIN makes Netty drain the socket to its end whatever autoRead
                // says (it must read to see the end), so the bound holds for an open stream.
                assertTrue(mayClose.await(TestSupport.TIMEOUT_S, java.util.concurrent.TimeUnit.SECONDS));
                c.closeWrite();
            });
            byte[] buf = new byte[total + 1];
            // One byte read turns reading ahead on; then nobody reads while the writer pushes:
            // the loop must stop queueing at the high mark.
            go(() -> assertEquals(1, s.read(buf, 0, 1)));
            TestSupport.awaitCondition(() -> s.reader.maxInboundSeen >= ConnReader.INBOUND_HIGH && !s.ch.config().isAutoRead(),
                    () -> "reading ahead never stopped: queued " + s.reader.maxInboundSeen);
            // Then the writer is stopped by flow control (parked on its watermark), or done if the
            // kernel's buffers took everything: either way no more input is on its way to us.
            TestSupport.awaitCondition(() -> c.writer.writeParks > 0 || written.get(), () -> "writer never stopped");
            long bound = ConnReader.INBOUND_HIGH + (long) Net.MAX_READS_PER_REQUEST * 64 * 1024;
            assertTrue(s.reader.maxInboundSeen <= bound, "input queued " + s.reader.maxInboundSeen + " > " + bound);
            mayClose.countDown();
            go(() -> {
                int got = 1;
                int n;
                while ((n = s.read(buf, got, buf.length - got)) >= 0) {
                    got += n;
                }
                assertEquals(total, got);
                assertArrayEquals(data, java.util.Arrays.copyOf(buf, total));
            });
            writer.check();
        } finally {
            c.close();
            s.close();
        }
    }

    @Test
    void slowReaderKeepsTheWritersMemoryBounded() throws Exception {
        Conn[] p = pair();
        Conn c = p[0], s = p[1];
        int total = TestSupport.stress(32, 8) * 1024 * 1024;
        try {
            Async writer = async(() -> {
                byte[] chunk = new byte[256 * 1024];
                for (int off = 0; off < total; off += chunk.length) {
                    c.write(chunk);
                }
                c.closeWrite();
            });
            // Do not read until the writer has parked on the watermark: the kernel buffers are
            // full and Netty's outbound buffer reached the high watermark.
            TestSupport.awaitCondition(() -> c.writer.writeParks > 0, () -> "writer never parked");
            go(() -> {
                byte[] buf = new byte[4096]; // small reads: a slow reader
                long got = 0;
                int n;
                while ((n = s.read(buf, 0, buf.length)) >= 0) {
                    got += n;
                }
                assertEquals(total, got);
            });
            writer.check();
            long bound = Net.HIGH_WATER + 2L * ConnWriter.CHUNK;
            assertTrue(c.writer.maxPendingSeen <= bound, "outbound bytes pending " + c.writer.maxPendingSeen + " > " + bound);
        } finally {
            c.close();
            s.close();
        }
    }

    /**
     * The peer shuts its output first; the server reads to EOF, and only then writes more than
     * the socket can hold, so its writes wait for EPOLLOUT after its input shut down: every byte
     * must still arrive. With Netty 4.2.18's epoll handler alone this loses the bytes every time:
     * the FIN empties the interest set, Netty deletes the descriptor from the epoll set, and the
     * EPOLLOUT that follows fails with ENOENT, after which Netty shuts the output (see
     * {@link EpollKeepRegistered}). Small socket buffers on both sides (a plain JDK socket as
     * the client) make the server's socket fill at once, and the client reads only after the
     * server's writer has waited for the socket.
     */
    @Test
    void writesAfterThePeersFinAllArrive() throws Exception {
        int total = TestSupport.stress(16, 4) * 1024 * 1024;
        AtomicReference<Conn> accepted = new AtomicReference<>();
        try (Listener l = Net.listen("127.0.0.1:0"); Socket client = new Socket()) {
            client.setReceiveBufferSize(16 * 1024); // before connecting: it sets the window
            client.connect(l.address());
            client.getOutputStream().write(42);
            client.shutdownOutput();
            Async server = async(() -> {
                try (Conn s = l.accept()) {
                    s.ch.config().setOption(ChannelOption.SO_SNDBUF, 16 * 1024);
                    accepted.set(s);
                    byte[] one = new byte[1];
                    readFully(s, one, 0, 1);
                    assertEquals(-1, s.read(one, 0, 1), "EOF after the request");
                    byte[] chunk = new byte[64 * 1024];
                    for (int off = 0; off < total; off += chunk.length) {
                        s.write(chunk);
                    }
                    s.closeWrite();
                }
            });
            TestSupport.awaitCondition(() -> accepted.get() != null && accepted.get().writer.writeParks > 0,
                    () -> "the server's writes never waited for the socket");
            InputStream in = client.getInputStream();
            byte[] buf = new byte[64 * 1024];
            long got = 0;
            int n;
            while ((n = in.read(buf)) >= 0) {
                got += n;
            }
            server.check();
            assertEquals(total, got, "bytes written after the peer's FIN");
        }
    }
}
