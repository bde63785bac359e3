package io.gmp4j.net;

import java.time.Duration;
import java.time.Instant;

/**
 * The deadline of one side of a {@link Conn} ({@link Conn#setReadDeadline},
 * {@link Conn#setWriteDeadline}): an immutable value on the {@link System#nanoTime} clock.
 * {@link ConnReader} and {@link ConnWriter} each keep the current one in a field guarded by the
 * connection's lock; an operation reads that field once under the lock, checks it
 * ({@link #passed}) and parks until it ({@link Conn#park}), so the park waits for the deadline
 * the check saw. Setting a new deadline replaces the value and wakes the parked operations,
 * which read the field again.
 */
final class Deadline {
    /** No deadline: Go's zero time. */
    static final Deadline NONE = new Deadline(false, 0);

    /** A deadline is set; false only for {@link #NONE}. */
    final boolean set;
    /** When it passes, on the {@link System#nanoTime} clock; 0 when not {@link #set}. */
    final long nanoTime;

    private Deadline(boolean set, long nanoTime) {
        this.set = set;
        this.nanoTime = nanoTime;
    }

    /** The deadline {@code t}; null or {@link Instant#EPOCH} (Go's zero time) is {@link #NONE}. */
    static Deadline at(Instant t) {
        if (t == null || t.equals(Instant.EPOCH)) {
            return NONE;
        }
        return new Deadline(true, toNanoTime(t));
    }

    /** True when this deadline is set and has passed now. */
    boolean passed() {
        return set && nanoTime - System.nanoTime() <= 0;
    }

    /** {@code t} on the {@link System#nanoTime} clock, clamped far from overflow. */
    private static long toNanoTime(Instant t) {
        long now = System.nanoTime();
        Instant wall = Instant.now();
        long d;
        try {
            d = Duration.between(wall, t).toNanos();
        } catch (ArithmeticException e) {
            d = t.isBefore(wall) ? Long.MIN_VALUE / 4 : Long.MAX_VALUE / 4;
        }
        d = Math.max(Long.MIN_VALUE / 4, Math.min(Long.MAX_VALUE / 4, d));
        return now + d;
    }
}
