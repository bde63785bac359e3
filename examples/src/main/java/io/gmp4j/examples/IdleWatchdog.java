package io.gmp4j.examples;

import io.gmp4j.time.Time;
import io.gmp4j.time.Timer;
import java.time.Duration;
import java.time.Instant;

/**
 * An idle timeout for a connection of the examples' servers: whoever sees activity
 * {@link #touch}es it (the proxy: every chunk read in either direction; the chat: every line
 * a client sends); a timer ({@link Time#afterFunc}) fires after the timeout and, if something
 * moved since, re-arms for the time that is left, otherwise runs {@code onIdle} once, in the
 * timer's goroutine. One timer per idle period, and a busy connection pays one clock read and
 * one volatile write per touch. On {@link Time#now()}, so a synctest bubble's clock drives it
 * in the tests.
 *
 * <p>Chosen over read deadlines: a deadline belongs to one read of one direction, must be set
 * again before every read to slide, and runs on the network poller's real clock, which a
 * bubble cannot move.
 *
 * <p>The pending timer: each firing that finds activity arms a new one in {@link #timer}.
 * {@link #stop} sets {@link #stopped} and then stops the latest; a firing stores its successor
 * before it reads {@code stopped}. So one of the two sees the other's write, and no timer
 * outlives the watchdog by more than a no-op firing. {@code onIdle} runs at most once: a
 * firing that runs it arms no successor.
 *
 * <pre>{@code
 * IdleWatchdog w = new IdleWatchdog(Duration.ofMinutes(5), () -> hub.post(s, new Left(c, true)));
 * w.start();
 * try {
 *     for (String line; (line = in.readLine()) != null; ) {
 *         w.touch();
 *         ...
 *     }
 * } finally {
 *     w.stop();
 * }
 * }</pre>
 */
public final class IdleWatchdog {
    private final Duration idle;
    private final Runnable onIdle;
    /** Nanoseconds since the epoch, on {@link Time#now()}, of the last {@link #touch}. */
    private volatile long lastActivity;
    private volatile Timer timer;
    private volatile boolean stopped;

    /**
     * A watchdog that runs {@code onIdle} once nothing has {@link #touch}ed it for {@code idle}.
     *
     * @throws IllegalArgumentException if {@code idle} is not positive
     */
    public IdleWatchdog(Duration idle, Runnable onIdle) {
        if (idle.isNegative() || idle.isZero()) {
            throw new IllegalArgumentException("idle timeout must be positive, got " + idle);
        }
        this.idle = idle;
        this.onIdle = java.util.Objects.requireNonNull(onIdle, "onIdle");
    }

    /** Stamps the start and arms the first timer. Call once. */
    public void start() {
        touch();
        timer = Time.afterFunc(idle, this::check);
    }

    /** Something moved: the idle time counts from now. */
    public void touch() {
        lastActivity = nanos(Time.now());
    }

    /** No more checks; a firing already running does nothing. Idempotent. */
    public void stop() {
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
