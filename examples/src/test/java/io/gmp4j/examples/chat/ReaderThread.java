package io.gmp4j.examples.chat;

import io.gmp4j.TestSupport;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The reading half of the tests' tallies ({@link Tally}, {@link RoomTally}): a daemon thread that
 * reads every line a {@link ChatClient} receives, to the end of its stream or to the line given
 * to {@link #stopAt}, and hands each to {@link #take} with this object's lock held, waking the
 * test threads in {@link #waitFor}. What stopped the reading early (a {@code take} that threw,
 * or the read itself) is kept as {@link #readingFailure}.
 */
abstract class ReaderThread extends Thread {
    private final ChatClient client;
    private volatile String stopAt;
    /** Guarded by this. */
    private Throwable readingFailure;
    /** Guarded by this: no more lines will be taken. */
    private boolean ended;

    ReaderThread(ChatClient client) {
        super("tally-" + client.socket.getLocalPort());
        this.client = client;
        setDaemon(true);
    }

    /** Counts one line; called with this object's lock held. */
    abstract void take(String line);

    @Override
    public final void run() {
        try {
            for (String l; (l = client.readLine()) != null; ) {
                synchronized (this) {
                    take(l);
                    notifyAll();
                }
                String s = stopAt;
                if (s != null && l.equals(s)) {
                    return;
                }
            }
        } catch (Throwable t) {
            synchronized (this) {
                readingFailure = t;
            }
        } finally {
            synchronized (this) {
                ended = true;
                notifyAll();
            }
        }
    }

    /** Reading stops after the next line equal to {@code line}. */
    final void stopAt(String line) {
        stopAt = line;
    }

    /**
     * Waits until {@code done} holds (true) or the reading has ended without it (false); fails
     * with {@code timedOut}'s text when neither happens within {@link TestSupport#TIMEOUT_S}.
     */
    final synchronized boolean waitFor(BooleanSupplier done, Supplier<String> timedOut) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TestSupport.TIMEOUT_S);
        while (!done.getAsBoolean()) {
            if (ended) {
                return false;
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                fail(timedOut.get());
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
        return true;
    }

    /** What stopped the reading early, or null. */
    final synchronized Throwable readingFailure() {
        return readingFailure;
    }

    /** Waits (within the safety net) until the reading has ended, and checks nothing stopped it early. */
    final void finish() {
        try {
            join(Duration.ofSeconds(TestSupport.TIMEOUT_S));
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
        assertFalse(isAlive(), "tally still reading");
        assertNull(readingFailure());
    }
}
