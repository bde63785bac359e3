package io.gmp4j.time;

import io.gmp4j.chan.RecvChan;
import io.gmp4j.runtime.Waiter;
import io.gmp4j.runtime.spi.Clock;
import java.time.Duration;
import java.time.Instant;

/**
 * Go's {@code time} package functions that involve waiting.
 *
 * <table>
 *   <caption>Go to Java</caption>
 *   <tr><th>Go</th><th>here</th></tr>
 *   <tr><td>{@code time.Sleep(d)}</td><td>{@code Time.sleep(d)}</td></tr>
 *   <tr><td>{@code <-time.After(d)}</td><td>{@code Time.after(d).recv()}</td></tr>
 *   <tr><td>{@code time.Tick(d)}</td><td>{@code Time.tick(d)}</td></tr>
 *   <tr><td>{@code time.NewTimer(d)}</td><td>{@code Time.newTimer(d)}</td></tr>
 *   <tr><td>{@code time.NewTicker(d)}</td><td>{@code Time.newTicker(d)}</td></tr>
 *   <tr><td>{@code time.AfterFunc(d, f)}</td><td>{@code Time.afterFunc(d, f)}</td></tr>
 *   <tr><td>{@code time.Now()}</td><td>{@code Time.now()}</td></tr>
 *   <tr><td>{@code time.Since(t)}</td><td>{@code Time.since(t)}</td></tr>
 * </table>
 *
 * <p>All of them run on the runtime's per-P timers (Go's timer heaps): in a goroutine, those of
 * its runtime; in any other thread, those of the default runtime. A goroutine that sleeps parks
 * as Go's does ("sleep" in the goroutine dump) and frees its P.
 *
 * <p>In a synctest bubble ({@code io.gmp4j.test.SyncTest}) every one of them uses the bubble's
 * clock, which starts at Go's synctest epoch (the first instant of the year 2000, UTC) and
 * moves only when every goroutine of the bubble is durably blocked, straight to the next timer:
 * a sleep, a timer or a ticker made there is the bubble's, and using one from outside the
 * bubble throws.
 */
public final class Time {
    private Time() {
    }

    /**
     * Go's {@code time.Sleep}: pauses the calling goroutine (or thread) for at least {@code d};
     * returns at once if {@code d} is zero or negative. Not interruptible, as in Go: an
     * interrupt is re-asserted when the sleep ends.
     */
    public static void sleep(Duration d) {
        long nanos = d.toNanos();
        if (nanos <= 0) {
            return;
        }
        Waiter.current().park("sleep", Clock.nanoTime() + nanos, true);
    }

    /**
     * Go's {@code time.Now}: the current time; in a synctest bubble, the bubble's clock (which
     * starts at Go's synctest epoch, the first instant of the year 2000, UTC).
     */
    public static Instant now() {
        return Clock.now();
    }

    /** Go's {@code time.Since(t)}: {@code now() - t}, on the same clock as {@link #now()}. */
    public static Duration since(Instant t) {
        return Duration.between(t, now());
    }

    /**
     * Go's {@code time.After}: a channel that receives the time once, after {@code d}. To be
     * able to stop it early, use {@link #newTimer}.
     */
    public static RecvChan<Instant> after(Duration d) {
        return newTimer(d).c();
    }

    /**
     * Go's {@code time.Tick}: a channel that receives the time every {@code d}, forever. Use
     * {@link #newTicker} to be able to stop it.
     *
     * @throws IllegalArgumentException if d is not positive
     */
    public static RecvChan<Instant> tick(Duration d) {
        return newTicker(d).c();
    }

    /** Go's {@code time.NewTimer}: a timer that sends the time on its channel after {@code d}. */
    public static Timer newTimer(Duration d) {
        return new Timer(d.toNanos(), null);
    }

    /**
     * Go's {@code time.NewTicker}: a ticker that sends the time on its channel every {@code d}.
     *
     * @throws IllegalArgumentException if d is not positive
     */
    public static Ticker newTicker(Duration d) {
        return new Ticker(d);
    }

    /**
     * Go's {@code time.AfterFunc}: after {@code d}, runs {@code f} in its own goroutine. The
     * returned timer's {@code stop} cancels it if it has not started yet.
     */
    public static Timer afterFunc(Duration d, Runnable f) {
        if (f == null) {
            throw new NullPointerException("afterFunc: null function");
        }
        return new Timer(d.toNanos(), f);
    }
}
