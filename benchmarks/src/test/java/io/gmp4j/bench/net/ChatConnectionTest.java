package io.gmp4j.bench.net;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.embedded.EmbeddedChannel;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The chat load client frames lines itself: whatever way the server's bytes are cut into reads
 * (a line split over several, many lines in one, a "\r\n" ending), every line is seen once, in
 * order, and an over-long line fails the run.
 */
class ChatConnectionTest {
    private FirstError errors;
    private final CountDownLatch ready = new CountDownLatch(1);

    /** Client u2 of a room whose senders are u0 and u1 (it only receives), with a fresh error slot. */
    private ChatConnection receiver() {
        errors = new FirstError();
        return new ChatConnection(2, 2, 4, "filler".getBytes(StandardCharsets.US_ASCII), errors, ready,
                new CountDownLatch(1), new CountDownLatch(1), new CountDownLatch(1));
    }

    private static byte[] loginAndLines(int perSender, String eol) {
        StringBuilder sb = new StringBuilder();
        sb.append("*** welcome").append(eol).append("*** choose a nickname:").append(eol);
        sb.append("*** u2 joined lobby").append(eol);
        long now = System.nanoTime();
        for (int seq = 0; seq < perSender; seq++) {
            for (int s = 0; s < 2; s++) {
                sb.append("[lobby] u").append(s).append(": ").append(seq).append(' ').append(now)
                        .append(" the quick brown fox").append(eol);
            }
        }
        return sb.toString().getBytes(StandardCharsets.US_ASCII);
    }

    /** Feeds {@code bytes} in reads of {@code chunk} bytes; returns lines received per sender. */
    private long[] feed(ChatConnection c, byte[] bytes, int chunk) {
        EmbeddedChannel ch = new EmbeddedChannel(c);
        for (int i = 0; i < bytes.length; i += chunk) {
            int n = Math.min(chunk, bytes.length - i);
            ch.writeInbound(Unpooled.copiedBuffer(bytes, i, n));
        }
        ByteBuf nick = ch.readOutbound();
        assertNotNull(nick, "the client never sent its nickname");
        assertEquals("u2\n", nick.toString(StandardCharsets.US_ASCII));
        nick.release();
        long[] got = c.receivedOnLoop();
        assertNull(errorOf(), "chunk " + chunk); // before the close below, which the client reports
        ch.finishAndReleaseAll();
        return got;
    }

    @Test
    void everyLineIsSeenOnceWhateverTheReadBoundaries() {
        byte[] bytes = loginAndLines(50, "\n");
        for (int chunk : new int[] {1, 2, 3, 7, 64, 100, 4096, bytes.length}) {
            ChatConnection c = receiver();
            long[] got = feed(c, bytes, chunk);
            assertArrayEquals(new long[] {50, 50}, got, "chunk " + chunk);
            Histogram h = c.latencies.getIntervalHistogram();
            assertEquals(100, h.getTotalCount(), "chunk " + chunk + ": one latency per chat line");
        }
        assertEquals(0, ready.getCount(), "the client saw its own join notice");
    }

    @Test
    void crLfEndingsAreStripped() {
        ChatConnection c = receiver();
        long[] got = feed(c, loginAndLines(10, "\r\n"), 5);
        assertArrayEquals(new long[] {10, 10}, got);
    }

    @Test
    void aLineLongerThanTheLimitFailsTheRunWhetherWholeOrSplit() {
        byte[] login = loginAndLines(0, "\n");
        byte[] longLine = ("[lobby] u0: 0 1 " + "x".repeat(ChatConnection.MAX_LINE) + "\n").getBytes(StandardCharsets.US_ASCII);
        for (int chunk : new int[] {100, 1 << 16}) {
            ChatConnection c = receiver();
            EmbeddedChannel ch = new EmbeddedChannel(c);
            ch.writeInbound(Unpooled.copiedBuffer(login));
            for (int i = 0; i < longLine.length && ch.isOpen(); i += chunk) {
                ch.writeInbound(Unpooled.copiedBuffer(longLine, i, Math.min(chunk, longLine.length - i)));
            }
            assertFalse(ch.isOpen(), "chunk " + chunk + ": the client closes on a broken line");
            assertTrue(errorOf().contains("longer than " + ChatConnection.MAX_LINE), errorOf());
            ch.finishAndReleaseAll();
        }
    }

    @Test
    void aSkippedSequenceNumberFailsTheRun() {
        ChatConnection c = receiver();
        String lines = new String(loginAndLines(0, "\n"), StandardCharsets.US_ASCII)
                + "[lobby] u0: 0 1 x\n[lobby] u0: 2 1 x\n";
        EmbeddedChannel ch = new EmbeddedChannel(c);
        ch.writeInbound(Unpooled.copiedBuffer(lines, StandardCharsets.US_ASCII));
        assertTrue(errorOf().contains("expected line 1, got line 2"), errorOf());
        ch.finishAndReleaseAll();
    }

    private String errorOf() {
        try {
            errors.check();
            return null;
        } catch (LoadFailure e) {
            return e.getMessage();
        }
    }
}
