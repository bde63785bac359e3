package io.gmp4j.runtime;

/**
 * A runtime timer: Go's {@code runtime.timer}. When it fires, its callback runs on an M of the
 * runtime that created it, from that runtime's per-P timer heaps, so a pending timer keeps
 * {@code checkdead} from reporting a deadlock and wakes an idle M on time.
 *
 * <p>The callback must not block: it runs inside the scheduler loop, as Go's timer functions
 * do (the usual callback readies a goroutine or does a non-blocking channel send). A goroutine
 * readied from a callback goes to the runnext slot of the P that ran the timer.
 *
 * <p>Thread-safe. A timer sits in at most one P's heap; {@link #reset} moves it to the heap of
 * the caller's P.
 */
public final class RuntimeTimer {
    final Scheduler sched;
    final Runnable callback;
    /** The heap holding this timer, or null when not pending. Guarded by that heap's lock. */
    Timers heap;
    /** Index in {@code heap}; guarded by the heap's lock. */
    int index = -1;
    /** Absolute deadline in System.nanoTime() terms (a bubble's clock for its timers); guarded by the heap's lock. */
    long when;
    /** The synctest bubble whose timer this is, or null: then it lives in the Ps' heaps. */
    final Bubble bubble;
    /** A bubble timer: pending, and its arming's order. Guarded by the bubble's lock. */
    boolean inBubble;
    long bubbleSeq;

    RuntimeTimer(Scheduler sched, Runnable callback, Bubble bubble) {
        this.sched = sched;
        this.callback = callback;
        this.bubble = bubble;
    }

    /**
     * Arms (or re-arms) the timer to fire at {@code whenNanos} (a {@link System#nanoTime()}
     * value).
     *
     * @return true if the timer was pending before the call (the earlier deadline is replaced)
     */
    public boolean reset(long whenNanos) {
        boolean wasPending = stop();
        if (bubble != null) {
            bubble.addTimer(this, whenNanos);
            return wasPending;
        }
        sched.addTimer(this, whenNanos);
        return wasPending;
    }

    /**
     * Stops the timer.
     *
     * @return true if the call prevented a pending firing; false if the timer had already fired
     *     (or its callback is running) or was never armed
     */
    public boolean stop() {
        if (bubble != null) {
            return bubble.removeTimer(this);
        }
        while (true) {
            Timers h = heap; // racy read, validated under the heap's lock
            if (h == null) {
                return false;
            }
            if (h.remove(this)) {
                return true;
            }
        }
    }

    /** True while armed and not yet fired. */
    public boolean pending() {
        return bubble != null ? bubble.isPending(this) : heap != null;
    }
}
