package io.gmp4j.runtime.spi;

import io.gmp4j.runtime.Bubble;
import java.time.Instant;

/**
 * The clock seam that {@code io.gmp4j.time} and {@code io.gmp4j.context} read instead of
 * {@link System#nanoTime()} and {@link Instant#now()}: the real clock, except in a member of a
 * synctest bubble (and in the bubble's timer callbacks), where it is the bubble's clock
 * ({@link Bubble}). For gmp4j's own modules, not a user API; users read {@code Time.now()}.
 *
 * <p>Outside any bubble each read costs one volatile read more than the real clock (the count
 * of open bubbles, 0).
 */
public final class Clock {
    private Clock() {
    }

    /** {@link System#nanoTime()}, or the caller's bubble's clock in the same terms. */
    public static long nanoTime() {
        Bubble b = Bubble.current();
        return b == null ? System.nanoTime() : b.nanoTime();
    }

    /**
     * {@link Instant#now()}, or the caller's bubble's clock (from
     * {@link io.gmp4j.runtime.Bubble#EPOCH}, Go's synctest epoch).
     */
    public static Instant now() {
        Bubble b = Bubble.current();
        return b == null ? Instant.now() : b.instant();
    }
}
