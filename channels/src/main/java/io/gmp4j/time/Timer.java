package io.gmp4j.time;

import java.time.Duration;

/**
 * Go's {@code time.Timer}: delivers the current time once on {@link #c()} after a duration.
 *
 * <pre>{@code
 * Timer t = Time.newTimer(Duration.ofMillis(50));   // t := time.NewTimer(50 * time.Millisecond)
 * Instant fired = t.c().recv();                     // <-t.C
 * }</pre>
 *
 * <p>Go 1.23 semantics: after {@link #stop} or {@link #reset} returns, no value from an earlier
 * arming can be received. Runs on the per-P timers of the runtime of the goroutine that created
 * it (or the default runtime for other threads), so a pending timer counts as pending work for
 * deadlock detection. Thread-safe.
 *
 * <p>A timer made by {@link Time#afterFunc} runs its function in a new goroutine instead, and
 * nothing is ever sent on its channel (Go's {@code C} is nil there).
 */
public final class Timer extends TimerChannel {
    /** For {@link Time#afterFunc}: run in a new goroutine instead of sending; else null. */
    private final Runnable func;

    Timer(long delayNanos, Runnable func) {
        this.func = func;
        rearm(now() + Math.max(0, delayNanos));
    }

    @Override
    void fired(long gen, long when) {
        disarm();
        if (func != null) {
            sched.go(func);
        } else {
            deliver();
        }
    }

    /**
     * Go's {@code t.Stop()}: prevents the timer from firing.
     *
     * @return true if the call stopped a pending timer; false if it had already fired or been
     *     stopped
     */
    public boolean stop() {
        return rearm(-1);
    }

    /**
     * Go's {@code t.Reset(d)}: re-arms the timer to fire after {@code d}, discarding any pending
     * firing and any undelivered value.
     *
     * @return true if the timer had been pending
     */
    public boolean reset(Duration d) {
        return rearm(now() + Math.max(0, d.toNanos()));
    }
}
