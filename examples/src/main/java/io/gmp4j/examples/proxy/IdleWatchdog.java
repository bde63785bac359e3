package io.gmp4j.examples.proxy;

import io.gmp4j.time.Time;
import io.gmp4j.time.Timer;
import java.time.Duration;
import java.time.Instant;

/**
 * A session's idle timeout across both directions: every read {@link #touch}es it; a timer
 * ({@link Time#afterFunc}) fires after the timeout and, if something moved since, re-arms for
 * the time that is left, otherwise runs {@code onIdle} once. One timer per idle period, and a
 * busy connection pays one clock read and one volatile write per chunk. On {@link Time#now()},
 * so a synctest bubble's clock drives it in the tests.
 *
 * <p>The pending timer: each firing that finds activity arms a new one in {@link #timer}.
 * {@link #stop} sets {@link #stopped} and then stops the latest; a firing stores its successor
 * before it reads {@code stopped}. So one of the two sees the other's write, and no timer
 * outlives the watchdog by more than a no-op firing.
 */
final class IdleWatchdog {
    private final Duration idle;
    private final Runnable onIdle;
    /** Nanoseconds since the epoch, on {@link Time#now()}, of the last {@link #touch}. */
    private volatile long lastActivity;
    private volatile Timer timer;
    private volatile boolean stopped;

    IdleWatchdog(Duration idle, Runnable onIdle) {
        if (idle.isNegative() || idle.isZero()) {
            throw new IllegalArgumentException("idle timeout must be positive, got " + idle);
        }
        this.idle = idle;
        this.onIdle = onIdle;
    }

    /** Stamps the start and arms the first timer. */
    void start() {
        touch();
        timer = Time.afterFunc(idle, this::check);
    }

    /** Something moved (a read in either direction). */
    void touch() {
        lastActivity = nanos(Time.now());
    }

    /** No more checks; a firing already running does nothing. */
    void stop() {
        stopped = true;
        Timer t = timer;
        if (t != null) {
            t.stop();
        }
    }

    /** The timer's goroutine: runs onIdle, or re-arms for the time left. */
    private void check() {
        if (stopped) {
            return;
        }
        long quiet = nanos(Time.now()) - lastActivity;
        long left = idle.toNanos() - quiet;
        if (left <= 0) {
            onIdle.run();
            return;
        }
        Timer next = Time.afterFunc(Duration.ofNanos(left), this::check);
        timer = next;
        if (stopped) {
            next.stop(); // stopped meanwhile, maybe after stopping our predecessor only
        }
    }

    private static long nanos(Instant t) {
        return t.getEpochSecond() * 1_000_000_000L + t.getNano();
    }
}
