package io.gmp4j.net;

import io.gmp4j.TestSupport;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The goroutine's own write path ({@link DirectWriter}): used while the loop holds nothing of
 * the connection's, bytes in order when writes move between it and the loop, and the
 * connection's one descriptor closed with it; a reset peer fails the writes.
 */
class DirectWriteTest extends NetTestBase {
    private static boolean wasEnabled;

    /** The path is on by default, but a test JVM may run with it off ({@link DirectWriter#enabled}): these tests turn it on. */
    @org.junit.jupiter.api.BeforeAll
    static void enable() {
        wasEnabled = DirectWriter.enabled;
        DirectWriter.enabled = true;
    }

    @org.junit.jupiter.api.AfterAll
    static void restore() {
        DirectWriter.enabled = wasEnabled;
    }

    @BeforeEach
    void epollOnly() {
        go(() -> {
            Poller p = Poller.current();
            assertEquals(Poller.Transport.EPOLL, p.transport, "these tests need the epoll transport: " + p);
        });
    }

    @Test
    void requestAndResponseWriteStraightToTheSocket() throws Exception {
        Conn[] p = ConnTest.pair();
        Conn c = p[0], s = p[1];
        int rounds = 200;
        try {
            go(() -> {
                byte[] msg = new byte[64];
                byte[] got = new byte[64];
                for (int i = 0; i < rounds; i++) {
                    msg[0] = (byte) i;
                    c.write(msg);
                    readFully(s, got, 0, got.length);
                    assertEquals((byte) i, got[0]);
                    s.write(got);
                    readFully(c, got, 0, got.length);
                    assertEquals((byte) i, got[0]);
                }
            });
            assertEquals(rounds, c.writer.directWrites, "client writes that went straight to the socket");
            assertEquals(rounds, s.writer.directWrites, "server writes that went straight to the socket");
            assertEquals(0, c.writer.loopWrites + s.writer.loopWrites, "writes handed to the loop");
        } finally {
            c.close();
            s.close();
        }
    }

    /**
     * A writer far ahead of its reader fills the socket: the rest of a buffer goes to the loop,
     * later writes follow it there, and once the loop has sent everything writes go straight
     * again. The reader checks every counter in order.
     */
    @Test
    void bytesKeepTheirOrderBetweenTheSocketAndTheLoop() throws Exception {
        countersInOrder(new int[]{1000}, TestSupport.stress(4000, 1000));
    }

    /**
     * Small writes go through the writer's scratch memory, larger ones through a buffer each:
     * sizes on both sides of {@link DirectWriter#SCRATCH_BYTES} keep every byte in order.
     */
    @Test
    void smallAndLargeWritesKeepTheirOrder() throws Exception {
        int atLimit = DirectWriter.SCRATCH_BYTES / Long.BYTES;
        countersInOrder(new int[]{1, 37, atLimit, atLimit + 1, 1000}, TestSupport.stress(10_000, 3000));
    }

    /**
     * {@code writes} writes of 8-byte counters from 0, write {@code w} carrying
     * {@code longsPerWrite[w % length]} of them, from byte arrays (whole and a slice), heap and
     * direct buffers in turn, far ahead of a reader that starts only once the socket is full and
     * a write reached the loop; the reader checks every counter in order.
     */
    private void countersInOrder(int[] longsPerWrite, long writes) throws Exception {
        Conn[] p = ConnTest.pair();
        Conn c = p[0], s = p[1];
        long total = 0;
        for (long w = 0; w < writes; w++) {
            total += longsPerWrite[(int) (w % longsPerWrite.length)];
        }
        int most = java.util.Arrays.stream(longsPerWrite).max().orElseThrow() * Long.BYTES;
        try {
            Async writer = async(() -> {
                ByteBuffer heap = ByteBuffer.allocate(most);
                ByteBuffer direct = ByteBuffer.allocateDirect(most);
                long next = 0;
                for (long w = 0; w < writes; w++) {
                    int longs = longsPerWrite[(int) (w % longsPerWrite.length)];
                    ByteBuffer buf = (w / 4) % 2 == 0 ? heap : direct;
                    buf.clear();
                    for (int i = 0; i < longs; i++) {
                        buf.putLong(next++);
                    }
                    buf.flip();
                    switch ((int) (w % 3)) {
                        case 0 -> c.write(buf);
                        case 1 -> {
                            byte[] b = new byte[buf.remaining()];
                            buf.get(b);
                            c.write(b);
                        }
                        default -> {
                            byte[] b = new byte[buf.remaining() + 3];
                            buf.get(b, 1, b.length - 3);
                            c.write(b, 1, b.length - 3);
                        }
                    }
                }
                c.closeWrite();
            });
            TestSupport.awaitCondition(() -> c.writer.loopWrites > 0, () -> "no write reached the loop");
            readCounters(s, total);
            writer.check();
            assertTrue(c.writer.directWrites > 0, "no write went straight to the socket");
        } finally {
            c.close();
            s.close();
        }
    }

    /** Reads {@code s} to its end: 8-byte counters from 0, {@code count} of them, none partial. */
    private void readCounters(Conn s, long count) throws Exception {
        go(() -> {
            byte[] b = new byte[8192];
            ByteBuffer in = ByteBuffer.allocate(b.length + Long.BYTES);
            long expect = 0;
            int n;
            while ((n = s.read(b, 0, b.length)) >= 0) {
                in.put(b, 0, n).flip();
                while (in.remaining() >= Long.BYTES) {
                    assertEquals(expect++, in.getLong());
                }
                in.compact();
            }
            assertEquals(0, in.position(), "a partial counter at the end");
            assertEquals(count, expect);
        });
    }

    /** A peer that resets: the writer's next writes fail with the reset, then every call does. */
    @Test
    void writesToAResetPeerFail() throws Exception {
        try (ServerSocket ss = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Thread peer = Thread.ofPlatform().start(() -> {
                try (Socket so = ss.accept()) {
                    so.getInputStream().read(); // the first byte, then a reset
                    so.setSoLinger(true, 0);
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            go(() -> {
                try (Conn c = Net.dial("127.0.0.1:" + ss.getLocalPort())) {
                    byte[] b = new byte[512];
                    c.write(b, 0, 1);
                    IOException e = assertThrows(IOException.class, () -> {
                        for (int i = 0; i < 100_000; i++) {
                            c.write(b);
                        }
                    });
                    assertInstanceOf(SocketException.class, e, e.toString());
                    assertTrue(e.getMessage().contains("reset") || e.getMessage().contains("broken pipe"), e.getMessage());
                    assertThrows(IOException.class, () -> c.write(b), "the failure stays");
                    assertTrue(c.writer.directWrites > 0, "the first write went straight to the socket");
                }
            });
            peer.join(TestSupport.TIMEOUT_S * 1000);
        }
    }

    @Test
    void descriptorsCloseWithTheConnection() throws Exception {
        File fds = new File("/proc/self/fd");
        assertNotNull(fds.list(), "/proc/self/fd");
        closePairs(4); // the first connections open what stays open (classes, epoll sets)
        int before = fds.list().length;
        closePairs(TestSupport.stress(200, 50));
        TestSupport.awaitCondition(() -> fds.list().length <= before,
                () -> (fds.list().length - before) + " descriptors more than before");
    }

    /**
     * A connection with a direct writer holds one descriptor, the channel's own: {@code n}
     * pairs, each written both ways straight to the socket, add exactly {@code 2n} sockets to
     * the process (a duplicate per writer would make it {@code 4n}).
     */
    @Test
    void oneDescriptorPerConnection() throws Exception {
        int n = 50;
        go(() -> {
            try (Listener l = Net.listen("127.0.0.1:0")) {
                java.util.Set<String> before = sockets();
                Conn[] conns = new Conn[2 * n];
                for (int i = 0; i < n; i++) {
                    Conn c = Net.dial(l.address());
                    Conn s = l.accept();
                    conns[2 * i] = c;
                    conns[2 * i + 1] = s;
                    oneByteEachWay(c, s, i);
                }
                java.util.Set<String> after = sockets();
                after.removeAll(before);
                try {
                    assertEquals(2 * n, after.size(), "sockets opened by " + n + " pairs: " + after);
                } finally {
                    for (Conn c : conns) {
                        c.close();
                    }
                }
            }
        });
    }

    /** The process's open sockets, as "fd -> socket:[inode]". */
    static java.util.Set<String> sockets() throws IOException {
        java.util.Set<String> out = new java.util.HashSet<>();
        try (var list = java.nio.file.Files.list(java.nio.file.Path.of("/proc/self/fd"))) {
            for (java.nio.file.Path fd : (Iterable<java.nio.file.Path>) list::iterator) {
                try {
                    String target = java.nio.file.Files.readSymbolicLink(fd).toString();
                    if (target.startsWith("socket:")) {
                        out.add(fd.getFileName() + " -> " + target);
                    }
                } catch (java.nio.file.NoSuchFileException closed) {
                    // closed while listed (the listing's own descriptor, say)
                }
            }
        }
        return out;
    }

    /** Byte {@code i} from c to s and back: each side's first write, which goes straight to the socket. */
    private static void oneByteEachWay(Conn c, Conn s, int i) throws IOException {
        byte[] one = {(byte) i};
        c.write(one);
        readFully(s, one, 0, 1);
        s.write(one);
        readFully(c, one, 0, 1);
        assertTrue(c.writer.directWrites == 1 && s.writer.directWrites == 1, "writes went straight to the socket");
    }

    /** Opens {@code n} pairs, writes on each both ways, and closes them: half from each side. */
    private static void closePairs(int n) {
        go(() -> {
            try (Listener l = Net.listen("127.0.0.1:0")) {
                for (int i = 0; i < n; i++) {
                    Conn c = Net.dial(l.address());
                    Conn s = l.accept();
                    oneByteEachWay(c, s, i);
                    byte[] one = new byte[1];
                    if (i % 2 == 0) {
                        c.close();
                        assertEquals(-1, s.read(one, 0, 1), "the peer's close reached the other side");
                        s.close();
                    } else {
                        s.close();
                        assertEquals(-1, c.read(one, 0, 1), "the peer's close reached the other side");
                        c.close();
                    }
                }
            }
        });
    }
}
