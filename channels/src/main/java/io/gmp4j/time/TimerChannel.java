package io.gmp4j.time;

import io.gmp4j.GoRuntime;
import io.gmp4j.chan.Chan;
import io.gmp4j.chan.RecvChan;
import io.gmp4j.runtime.Bubble;
import io.gmp4j.runtime.RuntimeTimer;
import io.gmp4j.runtime.Scheduler;
import io.gmp4j.runtime.ShortLock;
import java.time.Instant;

/**
 * What {@link Timer} and {@link Ticker} share: a channel of capacity one that a runtime timer
 * sends the time into, with Go 1.23's guarantee that no stale value is received after
 * {@code stop} or {@code reset} returns.
 *
 * <p>How the guarantee is kept: every arming gets a new generation number and its own runtime
 * timer, whose callback sends only if its generation is still the current one. The check and
 * the send happen under a small lock, and {@code stop}/{@code reset} bump the generation and
 * drain the channel under the same lock. So a firing that raced with a stop either sent before
 * the stop (and the stop drained it) or sees a newer generation and sends nothing.
 *
 * <p>The lock is a spin lock: the callback runs on an M inside the scheduler loop and must not
 * park, and the critical sections are a few field writes and non-blocking channel operations.
 * A goroutine holds it only inside {@code Scheduler.acquirem}, so it is never unmounted while
 * holding it, and a spinner always waits for a thread that is running.
 */
abstract class TimerChannel {
    /** Capacity one: a value waits there for a slow receiver; later ones are dropped. */
    final Chan<Instant> c = new Chan<>(1);
    final Scheduler sched;
    /** Guarded by lock. The generation of the current arming; bumped by every stop and reset. */
    private long generation;
    /** Guarded by lock. The runtime timer of the current arming, or null when stopped. */
    private RuntimeTimer armed;
    private final ShortLock lock = new ShortLock();
    /** The synctest bubble this timer was made in, or null: its clock; only members may use it. */
    private final Bubble bubble = Bubble.current();

    TimerChannel() {
        Scheduler s = Scheduler.current();
        this.sched = s != null ? s : Scheduler.of(GoRuntime.defaultRuntime());
    }

    /** The channel the time is delivered on. */
    public RecvChan<Instant> c() {
        return c;
    }

    /** What a firing of the arming {@code gen} does; called under the lock. */
    abstract void fired(long gen, long when);

    /**
     * Stops the current arming and drains the channel; then, if {@code whenNanos >= 0}, arms
     * anew. Returns true if an arming was pending (not yet fired).
     */
    final boolean rearm(long whenNanos) {
        if (bubble != null) {
            Bubble.checkMember(bubble, "use of a synctest timer");
        }
        // acquirem: the drain below is a channel operation with a safe point, and this goroutine
        // must not be yielded while it holds the lock a timer callback on an M may spin on.
        Scheduler.acquirem();
        lock.lock();
        try {
            boolean wasPending = armed != null && armed.stop();
            armed = null;
            long gen = ++generation;
            while (c.tryRecv() != null) {
                // drain a stale value: Go 1.23's Stop/Reset guarantee
            }
            if (whenNanos >= 0) {
                arm(gen, whenNanos);
            }
            return wasPending;
        } finally {
            lock.unlock();
            Scheduler.releasem();
        }
    }

    /** Arms generation {@code gen} at {@code whenNanos}; called under the lock (also by fired()). */
    final void arm(long gen, long whenNanos) {
        RuntimeTimer t = sched.newTimer(() -> fire(gen, whenNanos));
        armed = t;
        t.reset(whenNanos);
    }

    private void fire(long gen, long when) {
        lock.lock();
        try {
            if (gen == generation) {
                fired(gen, when);
            }
        } finally {
            lock.unlock();
        }
    }

    /** Non-blocking send of the current time; dropped if a value already waits. */
    final void deliver() {
        c.trySend(bubble != null ? bubble.instant() : Instant.now());
    }

    /** The clock of this timer's deadlines: the bubble's, else {@link System#nanoTime()}. */
    final long now() {
        return bubble != null ? bubble.nanoTime() : System.nanoTime();
    }

    /** Marks the current arming as done (a one-shot timer that fired). */
    final void disarm() {
        armed = null;
    }
}
