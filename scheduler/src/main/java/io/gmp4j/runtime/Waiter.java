package io.gmp4j.runtime;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * One thread's wait on a gmp4j primitive: Go's {@code gopark}/{@code goready} for a goroutine,
 * and the same contract for any other thread (a platform thread, or a virtual thread of the
 * JDK's own scheduler), which parks its OS thread or JDK continuation instead.
 *
 * <p>Protocol, as with Go's sudog: the waiting thread publishes the waiter in some queue under
 * that queue's lock, releases the lock and calls {@link #park}. A waker removes it under the
 * lock, writes the result into its own record, releases the lock and calls {@link #wake}.
 * Exactly one {@code wake} may be issued per park.
 *
 * <p>When more than one party may end a wait (the cases of a select, a timeout, a
 * cancellation), each must first win {@link #claim}: the first claim wins and only the winner
 * calls {@link #wake}. This is Go's {@code selectDone} CAS. A waiter that only ever has one
 * possible waker need not be claimed.
 *
 * <p>A goroutine woken by another goroutine runs next on the waker's P (runnext), because
 * {@code wake} unparks its virtual thread from the waker's M.
 *
 * <p>Waits are not interruptible, as in Go: an interrupt is remembered and re-asserted when the
 * wait ends. Cancel with a context or a timeout instead.
 */
public final class Waiter {
    private static final VarHandle CLAIM;

    static {
        try {
            CLAIM = MethodHandles.lookup().findVarHandle(Waiter.class, "claim", Object.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The token a timed wait claims itself with when its deadline passes first. */
    public static final Object TIMED_OUT = new Object() {
        @Override
        public String toString() {
            return "TIMED_OUT";
        }
    };

    /** The goroutine that waits, or null for any other thread. */
    private final G g;
    private final Thread thread;
    /** Winner of the claim race; null while unclaimed. CAS null -> token, once per wait. */
    private volatile Object claim;
    /**
     * Set by {@link #wake} for a thread that is not a goroutine; a goroutine uses its G's park
     * state instead. Written after the waker wrote its result: the volatile store publishes it.
     */
    private volatile boolean woken;
    /**
     * False once a timed wait's timer fired but lost the claim and could not be stopped: its
     * callback may still be about to claim, so this waiter must not be reused for another wait.
     */
    private boolean reusable = true;

    private Waiter(G g, Thread thread) {
        this.g = g;
        this.thread = thread;
    }

    /** A waiter for the calling thread. */
    public static Waiter current() {
        Thread t = Thread.currentThread();
        return new Waiter(Carrier.gOf(t), t);
    }

    /** True if this waiter belongs to the calling thread (so it may be reused by it). */
    public boolean isCurrentThread() {
        return thread == Thread.currentThread();
    }

    /** The goroutine waiting, or null when the waiter is another kind of thread. */
    public G goroutine() {
        return g;
    }

    /** True if the calling thread may {@link #reset} and reuse this waiter for its next wait. */
    public boolean reusable() {
        return reusable && thread == Thread.currentThread();
    }

    /**
     * Prepares a reused waiter for its next wait. Only its own thread calls this, after the
     * previous wait ended (so no waker still holds it).
     */
    public void reset() {
        if (g == null) {
            woken = false; // only other threads use it; a volatile store is a full fence on x86
        }
        // Plain-mode reset is enough: the next wait publishes this waiter under a lock (or by a
        // CAS), which orders the reset before any claim a waker makes on it.
        CLAIM.set(this, null);
    }

    /**
     * Tries to become the one party that ends this wait.
     *
     * @param token what won (a select case's record, {@link #TIMED_OUT}, ...); not null
     * @return true for the first claim of this wait, false for every later one
     */
    public boolean claim(Object token) {
        // Full CAS: every candidate waker races here, and the loser must see the winner so it
        // leaves the waiter alone (Go: atomic.Cas(&gp.selectDone, 0, 1)).
        return claim == null && CLAIM.compareAndSet(this, null, token);
    }

    /** The winning claim token of this wait, or null if none was made. */
    public Object claimedBy() {
        return claim;
    }

    /** Makes the waiting thread runnable. Call once per wait, after writing the result. */
    public void wake() {
        if (g != null) {
            g.ready();
        } else {
            woken = true; // volatile store: publishes the waker's result before the unpark
            LockSupport.unpark(thread);
        }
    }

    /**
     * Parks the calling thread until {@link #wake}. {@code reason} is Go's wait reason shown in
     * the goroutine dump ("chan receive", "select", ...).
     */
    public void park(String reason) {
        park(reason, false);
    }

    /**
     * {@link #park(String)}, saying whether the wait is durable for a synctest bubble: one only
     * another goroutine of the waiter's bubble can end (see {@link G#park(String, boolean)}).
     */
    public void park(String reason, boolean durable) {
        if (g != null) {
            g.park(reason, durable);
            return;
        }
        Scheduler.platformWait(true);
        boolean interrupted = false;
        try {
            while (!woken) {
                LockSupport.park(this);
                if (Thread.interrupted()) {
                    interrupted = true;
                }
            }
        } finally {
            Scheduler.platformWait(false);
            if (interrupted) {
                thread.interrupt();
            }
        }
    }

    /**
     * Parks until {@link #wake} or until {@code deadline} (a {@link System#nanoTime()} value),
     * whichever comes first. The deadline competes through {@link #claim} with
     * {@link #TIMED_OUT}, so every other waker of a timed wait must claim before waking.
     *
     * @return false if the deadline won (nobody else may wake this wait), true otherwise
     */
    public boolean park(String reason, long deadline) {
        return park(reason, deadline, false);
    }

    /**
     * {@link #park(String, long)}, saying whether the wait is durable for a synctest bubble (see
     * {@link G#park(String, boolean)}). In a bubble's goroutine the deadline is on the bubble's
     * clock ({@link io.gmp4j.runtime.spi.Clock#nanoTime()}) and a bubble timer ends the wait.
     */
    public boolean park(String reason, long deadline, boolean durable) {
        if (g != null) {
            // A runtime timer on the goroutine's own runtime: checkdead sees it as pending, and
            // its firing readies the goroutine like any other waker (Go: a select on a timer).
            RuntimeTimer t = g.sched.newTimer(this::timeout);
            t.reset(deadline);
            g.park(reason, durable);
            boolean won = claim != TIMED_OUT;
            if (!t.stop() && won) {
                reusable = false; // the callback fired and lost, or is running: keep it off the next wait
            }
            return won;
        }
        Scheduler.platformWait(true);
        boolean interrupted = false;
        try {
            while (!woken) {
                long left = deadline - System.nanoTime();
                if (left <= 0 && claim(TIMED_OUT)) {
                    return false;
                }
                if (left > 0) {
                    LockSupport.parkNanos(this, left);
                } else {
                    LockSupport.park(this); // claimed by a waker that is about to wake us
                }
                if (Thread.interrupted()) {
                    interrupted = true;
                }
            }
            return true;
        } finally {
            Scheduler.platformWait(false);
            if (interrupted) {
                thread.interrupt();
            }
        }
    }

    private void timeout() {
        if (claim(TIMED_OUT)) {
            wake();
        }
    }

    @Override
    public String toString() {
        return "Waiter[" + (g != null ? g : thread) + "]";
    }
}
