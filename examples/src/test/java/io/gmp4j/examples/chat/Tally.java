package io.gmp4j.examples.chat;

import io.gmp4j.TestSupport;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Counts the {@code [lobby] a: p k ...} lines a client receives, on a thread of its own, failing
 * on a duplicate; notes the room being told that {@code slow} was disconnected.
 */
final class Tally extends Thread {
    private final ChatClient c;
    private final java.util.BitSet got = new java.util.BitSet();
    private int count;
    private boolean kicked;
    private volatile String stopAt;
    private volatile Throwable failure;

    private Tally(ChatClient c) {
        this.c = c;
        setDaemon(true);
    }

    static Tally start(ChatClient c) {
        Tally t = new Tally(c);
        t.start();
        return t;
    }

    @Override
    public void run() {
        try {
            for (String l; (l = c.readLine()) != null; ) {
                synchronized (this) {
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
                    notifyAll();
                }
                String s = stopAt;
                if (s != null && l.equals(s)) {
                    return;
                }
            }
        } catch (Throwable t) {
            failure = t;
        } finally {
            synchronized (this) {
                notifyAll();
            }
        }
    }

    void stopAt(String line) {
        stopAt = line;
    }

    synchronized int count() {
        return count;
    }

    synchronized boolean kicked() {
        return kicked;
    }

    synchronized void awaitCount(int n) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TestSupport.TIMEOUT_S);
        while (count < n && isAlive()) {
            long left = deadline - System.nanoTime();
            assertTrue(left > 0, () -> "got " + count + " of " + n);
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        assertNull(failure);
        assertEquals(n, count, "the client's connection ended early");
    }

    void finish() {
        try {
            join(Duration.ofSeconds(TestSupport.TIMEOUT_S));
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
        assertFalse(isAlive(), "tally still reading");
        assertNull(failure);
    }
}
