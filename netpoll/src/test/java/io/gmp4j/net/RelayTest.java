package io.gmp4j.net;

import io.gmp4j.TestSupport;
import io.netty.channel.ChannelOption;
import io.netty.channel.MaxMessagesRecvByteBufAllocator;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.zip.CRC32;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link Io#copy} between two connections of one event loop is done by the loop
 * ({@link Relay}). The chain in every test: a client {@code c} writes to the server side
 * {@code s}; {@code s} is copied to {@code u}, an upstream dialled next to {@code s} (same loop);
 * {@code k}, the upstream's server side, reads. Every byte is checked, and the relay's own
 * counter shows the loop forwarded them; closes, deadlines and a slow destination behave as in
 * the goroutine's copy.
 */
class RelayTest extends NetTestBase {

    /** {@code [c, s, u, k]}: c dialled s; u dialled k from s's loop. */
    static Conn[] chain() throws Exception {
        AtomicReference<Conn[]> ref = new AtomicReference<>();
        go(() -> {
            try (Listener front = Net.listen("127.0.0.1:0"); Listener back = Net.listen("127.0.0.1:0")) {
                Conn c = Net.dial(front.address());
                Conn s = front.accept();
                Conn u = Net.dial(back.address(), Duration.ofSeconds(5), s);
                Conn k = back.accept();
                ref.set(new Conn[]{c, s, u, k});
            }
        });
        Conn[] p = ref.get();
        assertTrue(p[1].ch.eventLoop() == p[2].ch.eventLoop(), "the upstream is on its client's loop");
        return p;
    }

    static void closeAll(Conn[] p) {
        for (Conn x : p) {
            x.close();
        }
    }

    @Test
    void theLoopCopiesEveryByteInOrderThenTheCopyReturnsAtEof() throws Exception {
        for (int size : new int[]{1, 64 * 1024 + 3, TestSupport.stress(16, 4) * 1024 * 1024}) {
            Conn[] p = chain();
            try {
                long[] result = copyThrough(p, size, true);
                assertEquals(size, result[0], "bytes Io.copy returned");
                assertEquals(size, result[1], "bytes reported to progress");
                assertEquals(size, p[1].reader.relayedBytes, "bytes the loop forwarded");
            } finally {
                closeAll(p);
            }
        }
    }

    @Test
    void withTheRelayOffTheGoroutineCopies() throws Exception {
        Relay.enabled = false;
        Conn[] p = chain();
        try {
            long[] result = copyThrough(p, 1024 * 1024 + 17, false);
            assertEquals(1024 * 1024 + 17, result[0]);
            assertEquals(0, p[1].reader.relayedBytes, "the loop forwarded nothing");
        } finally {
            Relay.enabled = true;
            closeAll(p);
        }
    }

    /**
     * c writes {@code size} random bytes and half-closes; the copy runs s to u and half-closes
     * u; k reads to EOF. Returns {@code [copy's result, progress total]} after checking k got
     * exactly what c wrote. With {@code relayed}, c writes the rest only once the loop has
     * forwarded its first byte, so every byte is the loop's to forward (a message and its FIN
     * arriving before the relay's start leave the copy to the goroutine, correctly).
     */
    private static long[] copyThrough(Conn[] p, int size, boolean relayed) throws Exception {
        Conn c = p[0], s = p[1], u = p[2], k = p[3];
        byte[] data = new byte[size];
        new Random(size).nextBytes(data);
        CRC32 sent = new CRC32();
        sent.update(data);
        AtomicLong progress = new AtomicLong();
        long[] copied = new long[1];
        Async relay = async(() -> {
            copied[0] = Io.copy(u, s, progress::addAndGet);
            u.closeWrite();
        });
        int first = 0;
        if (relayed) {
            // The first byte alone, once the relay is registered: when it has been forwarded,
            // the relay is live, and a FIN cannot overtake its start.
            TestSupport.awaitCondition(s.reader::relaying, () -> "the relay never registered");
            go(() -> c.write(data, 0, 1));
            TestSupport.awaitCondition(() -> s.reader.relayedBytes == 1, () -> "the loop did not forward the first byte");
            first = 1;
        }
        int from = first;
        Async writer = async(() -> {
            c.write(data, from, size - from);
            c.closeWrite();
        });
        CRC32 got = new CRC32();
        long[] n = new long[1];
        go(() -> {
            byte[] buf = new byte[16 * 1024];
            int r;
            while ((r = k.read(buf, 0, buf.length)) >= 0) {
                got.update(buf, 0, r);
                n[0] += r;
            }
        });
        writer.check();
        relay.check();
        assertEquals(size, n[0], "bytes that arrived");
        assertEquals(sent.getValue(), got.getValue(), "checksum of what arrived");
        return new long[]{copied[0], progress.get()};
    }

    /**
     * What the goroutine writes to the destination after the copy returns follows the copied
     * bytes, although the loop may still hold some of them (k reads slowly, through small
     * socket buffers). The relay's end fences its writes so the next write cannot go straight
     * to the socket ahead of them; the window that fence closes (the socket frees room before
     * the loop's next flush) is too narrow for this test to hit reliably without it, so this
     * checks the order, not the fence.
     */
    @Test
    void aWriteAfterTheCopyFollowsTheCopiedBytes() throws Exception {
        Conn[] p = chain();
        Conn c = p[0], s = p[1], u = p[2], k = p[3];
        int size = TestSupport.stress(8, 2) * 1024 * 1024;
        byte[] trailer = "END".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        try {
            u.ch.config().setOption(ChannelOption.SO_SNDBUF, 16 * 1024);
            k.ch.config().setOption(ChannelOption.SO_RCVBUF, 16 * 1024);
            Async relay = async(() -> {
                assertEquals(size, Io.copy(u, s));
                u.write(trailer);
                u.closeWrite();
            });
            Async writer = async(() -> {
                c.write(new byte[size]); // zeros, then the trailer's letters
                c.closeWrite();
            });
            go(() -> {
                byte[] buf = new byte[1024];
                long got = 0;
                int n;
                while ((n = k.read(buf, 0, buf.length)) >= 0) {
                    for (int i = 0; i < n; i++, got++) {
                        byte want = got < size ? 0 : trailer[(int) (got - size)];
                        if (buf[i] != want) {
                            throw new IOException("byte " + got + " is " + buf[i] + ", not " + want);
                        }
                    }
                }
                assertEquals(size + trailer.length, got);
            });
            writer.check();
            relay.check();
            assertTrue(s.reader.relayedBytes > 0, "the loop forwarded nothing");
        } finally {
            closeAll(p);
        }
    }

    /** Starts the copy s to u and waits until the loop has forwarded one message to k. */
    private static Async relayRunning(Conn[] p) throws Exception {
        Conn c = p[0], s = p[1], u = p[2], k = p[3];
        Async relay = async(() -> Io.copy(u, s));
        go(() -> {
            c.write(new byte[]{1, 2, 3});
            byte[] three = new byte[3];
            readFully(k, three, 0, 3);
        });
        TestSupport.awaitCondition(() -> s.reader.relayedBytes == 3, () -> "the loop did not forward: " + s.reader.relayedBytes);
        return relay;
    }

    @Test
    void closingTheSourceWakesTheCopyWithUseOfClosedConnection() throws Exception {
        Conn[] p = chain();
        try {
            Async relay = relayRunning(p);
            go(() -> p[1].close());
            assertInstanceOf(NetClosedException.class, relay.join());
        } finally {
            closeAll(p);
        }
    }

    @Test
    void closingTheDestinationWakesTheCopy() throws Exception {
        Conn[] p = chain();
        try {
            Async relay = relayRunning(p);
            go(() -> p[2].close());
            // The plain loop goes on reading s: the next bytes meet the closed destination.
            go(() -> p[0].write(new byte[]{4}));
            assertInstanceOf(NetClosedException.class, relay.join());
        } finally {
            closeAll(p);
        }
    }

    @Test
    void aReadDeadlineSetDuringTheRelayFailsTheCopy() throws Exception {
        Conn[] p = chain();
        try {
            Async relay = relayRunning(p);
            go(() -> p[1].setReadDeadline(Instant.now().minusSeconds(1)));
            assertInstanceOf(DeadlineExceededException.class, relay.join());
        } finally {
            closeAll(p);
        }
    }

    /**
     * k does not read: the loop stops reading s once u's outbound buffer is over the high
     * watermark, so c's writer parks, and u holds at most the watermark and one read burst
     * (at most maxMessagesPerRead buffers of at most 64 KiB).
     * Then k reads everything, in order.
     */
    @Test
    void aSlowDestinationStopsTheSourceAndBoundsMemory() throws Exception {
        Conn[] p = chain();
        Conn c = p[0], s = p[1], u = p[2], k = p[3];
        int total = TestSupport.stress(32, 8) * 1024 * 1024;
        try {
            // Small socket buffers on both hops: the kernel's autotuned ones hold megabytes,
            // which could take all of c's bytes without the relay or c's writer ever waiting.
            for (Conn x : new Conn[]{c, u}) {
                x.ch.config().setOption(ChannelOption.SO_SNDBUF, 16 * 1024);
            }
            for (Conn x : new Conn[]{s, k}) {
                x.ch.config().setOption(ChannelOption.SO_RCVBUF, 16 * 1024);
            }
            Async writer = async(() -> {
                byte[] chunk = new byte[256 * 1024];
                for (int off = 0; off < total; off += chunk.length) {
                    java.util.Arrays.fill(chunk, (byte) (off / chunk.length));
                    c.write(chunk);
                }
                c.closeWrite();
            });
            Async relay = async(() -> {
                Io.copy(u, s);
                u.closeWrite();
            });
            TestSupport.awaitCondition(() -> c.writer.writeParks > 0, () -> "the client's writer never parked: "
                    + s.reader.relayedBytes + " bytes relayed, " + u.writer.maxPendingSeen + " pending at most");
            // The stall: c's writer waits for s, the loop waits for u. (Later, c's FIN makes
            // Netty read s's socket to its end whatever autoRead says; that is not the stall.)
            long pendingInStall = u.writer.maxPendingSeen;
            go(() -> {
                byte[] buf = new byte[4096];
                long got = 0;
                int n;
                while ((n = k.read(buf, 0, buf.length)) >= 0) {
                    for (int i = 0; i < n; i++) {
                        if (buf[i] != (byte) ((got + i) / (256 * 1024))) {
                            throw new IOException("byte " + (got + i) + " out of order");
                        }
                    }
                    got += n;
                }
                assertEquals(total, got);
            });
            writer.check();
            relay.check();
            assertEquals(total, s.reader.relayedBytes, "bytes the loop forwarded");
            // One read burst may follow the watermark: Netty's epoll loop finishes it even with
            // autoRead turned off (as the read-ahead bound in Conn's class comment says).
            int burst = ((MaxMessagesRecvByteBufAllocator) s.ch.config().getRecvByteBufAllocator()).maxMessagesPerRead();
            long bound = Net.HIGH_WATER + (burst + 1L) * 64 * 1024;
            assertTrue(pendingInStall <= bound, "outbound bytes pending " + pendingInStall + " > " + bound);
        } finally {
            closeAll(p);
        }
    }
}
