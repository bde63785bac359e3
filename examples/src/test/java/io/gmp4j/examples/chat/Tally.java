package io.gmp4j.examples.chat;

import java.util.BitSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * Counts the {@code [lobby] a: p k ...} lines a client receives, on a thread of its own, failing
 * on a duplicate; notes the room being told that {@code slow} was disconnected.
 */
final class Tally extends ReaderThread {
    private final BitSet got = new BitSet();
    private int count;
    private boolean kicked;

    private Tally(ChatClient c) {
        super(c);
    }

    static Tally start(ChatClient c) {
        Tally t = new Tally(c);
        t.start();
        return t;
    }

    @Override
    void take(String l) {
        if (l.startsWith("[lobby] a: p ")) {
            int k = Integer.parseInt(l.split(" ")[3]);
            if (got.get(k)) {
                throw new AssertionError("twice: p " + k);
            }
            got.set(k);
            count++;
        } else if (l.equals("*** slow was disconnected: too slow")) {
            kicked = true;
        }
    }

    synchronized int count() {
        return count;
    }

    synchronized boolean kicked() {
        return kicked;
    }

    /** Waits until exactly {@code n} lines were counted; fails on a duplicate or when the connection ends first. */
    synchronized void awaitCount(int n) throws InterruptedException {
        waitFor(() -> count >= n, () -> "got " + count + " of " + n);
        assertNull(readingFailure());
        assertEquals(n, count, "the client's connection ended early");
    }
}
