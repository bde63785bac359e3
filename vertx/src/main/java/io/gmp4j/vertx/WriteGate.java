package io.gmp4j.vertx;

import io.gmp4j.runtime.Waiter;
import java.util.function.BooleanSupplier;

/**
 * A writer's wait for a Vert.x write stream's drain: after each write, while the stream's
 * {@code writeQueueFull()} holds, the writing goroutine parks here until the stream's drain
 * handler ({@link #drained}) or its close ({@link #close}) wakes it. So a writer that outpaces
 * the socket holds at most the stream's write-queue bound in Vert.x, never more.
 *
 * <p>No lost wake-up: the writer publishes itself in the slot, then checks the queue again;
 * a drain that came before the publication is seen by that check (the writer takes itself off
 * the slot and goes on), one that came after finds it in the slot. Whoever takes the waiter off
 * the slot wakes it, once.
 */
final class WriteGate {
    private Waiter waiter;
    private boolean closed;
    private long waits;

    /** The stream's drain handler (its event loop). */
    void drained() {
        Waiter w;
        synchronized (this) {
            w = waiter;
            waiter = null;
        }
        if (w != null) {
            w.wake();
        }
    }

    /** The stream closed: a parked writer wakes, and every later wait returns false at once. */
    void close() {
        Waiter w;
        synchronized (this) {
            closed = true;
            w = waiter;
            waiter = null;
        }
        if (w != null) {
            w.wake();
        }
    }

    /**
     * Parks while {@code full} holds.
     *
     * @param full   the stream's {@code writeQueueFull()}; it may throw when the stream closed
     * @param reason the wait reason for the goroutine dump
     * @return true when the stream takes writes again, false when it closed
     */
    boolean awaitWritable(BooleanSupplier full, String reason) {
        while (full.getAsBoolean()) {
            Waiter w = Waiter.current();
            synchronized (this) {
                if (closed) {
                    return false;
                }
                waiter = w;
                waits++;
            }
            if (!full.getAsBoolean()) {
                synchronized (this) {
                    if (waiter == w) { // no drain took it: nobody will wake it, go on
                        waiter = null;
                        continue;
                    }
                }
                // a drain or the close took it off the slot and wakes it: consume that wake
            }
            Parking.park(w, reason);
        }
        synchronized (this) {
            return !closed;
        }
    }

    /** How many times a writer parked (or set out to park) for a drain. */
    synchronized long waits() {
        return waits;
    }
}
