package io.gmp4j.time;

import java.time.Duration;

/**
 * Go's {@code time.Ticker}: delivers the time on {@link #c()} every period until stopped.
 *
 * <pre>{@code
 * Ticker tk = Time.newTicker(Duration.ofMillis(10));  // tk := time.NewTicker(10 * time.Millisecond)
 * for (int i = 0; i < 3; i++) tk.c().recv();          // <-tk.C
 * tk.stop();
 * }</pre>
 *
 * <p>A receiver that falls behind gets at most one waiting tick: later ticks are dropped while
 * one is undelivered, and the schedule skips the periods it missed instead of bursting. Go 1.23
 * semantics for {@link #stop} and {@link #reset}: no stale tick is received after they return.
 * Thread-safe.
 */
public final class Ticker extends TimerChannel {
    private volatile long period;

    Ticker(Duration d) {
        this.period = checkPeriod(d);
        rearm(now() + period);
    }

    private static long checkPeriod(Duration d) {
        long p = d.toNanos();
        if (p <= 0) {
            throw new IllegalArgumentException("non-positive interval for NewTicker: " + d);
        }
        return p;
    }

    @Override
    void fired(long gen, long when) {
        deliver();
        // Go's ticker arithmetic: the next tick is the first multiple of the period after now,
        // counted from the previous deadline, so a late firing skips what it missed.
        long now = now();
        long p = period;
        long next = when + p;
        if (next - now <= 0) {
            next += p * ((now - next) / p + 1);
        }
        arm(gen, next);
    }

    /** Go's {@code tk.Stop()}: no more ticks will be sent. */
    public void stop() {
        rearm(-1);
    }

    /**
     * Go's {@code tk.Reset(d)}: stops the ticker and restarts it with period {@code d}; the next
     * tick comes {@code d} from now.
     *
     * @throws IllegalArgumentException if d is not positive
     */
    public void reset(Duration d) {
        period = checkPeriod(d);
        rearm(now() + period);
    }
}
