package io.gmp4j.context;

import io.gmp4j.runtime.spi.Clock;
import java.time.Duration;
import java.time.Instant;

/** Saturating conversions between {@link Instant}/{@link Duration} and nanoTime deadlines. */
final class Deadlines {
    private Deadlines() {
    }

    /** Nanoseconds from now until {@code at} (negative if past), clamped to a safe range. */
    static long nanosUntil(Instant at) {
        return clamp(Duration.between(Clock.now(), at));
    }

    /** {@code now + d} without overflow. */
    static long plus(long now, Duration d) {
        return now + clamp(d);
    }

    private static long clamp(Duration d) {
        // A century either way is "never" / "long ago" for a deadline, and keeps sums in range.
        final long limit = Long.MAX_VALUE / 4;
        if (d.compareTo(Duration.ofNanos(limit)) > 0) {
            return limit;
        }
        if (d.compareTo(Duration.ofNanos(-limit)) < 0) {
            return -limit;
        }
        return d.toNanos();
    }
}
