package io.gmp4j.runtime;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * The short internal lock of a gmp4j primitive (a channel, a mutex's wait queue, a context):
 * Go's runtime {@code mutex} around a channel or a sema root. Not padded, unlike the
 * scheduler's {@code SpinLock}: there is one per primitive and most are not contended.
 *
 * <p>The rules that make spinning safe, kept by every user:
 * <ul>
 *   <li>A holder never parks, yields or passes a safe point inside its critical section, so a
 *       spinner (possibly an M running a timer callback, which has no P to give away) always
 *       waits for a thread that is running.</li>
 *   <li>A waiter spins, then yields its core (a platform thread) or its P (a goroutine) to a
 *       holder that the OS descheduled; but never while it holds another such lock (then it
 *       uses {@link #lockHolding}) or is inside {@link Scheduler#acquirem}: yielding would
 *       unmount a holder.</li>
 * </ul>
 *
 * <p>Why not {@code ReentrantLock} or {@code synchronized}: a goroutine queued on an AQS lock
 * unmounts and becomes the waiter that the lock hands over to; if every M is blocked behind it,
 * nothing runs it. And the deadlock detector only counts waits through {@link Waiter}.
 */
public final class ShortLock {
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(ShortLock.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Spins before a waiter starts yielding to the holder. */
    private static final int SPINS = 64;
    /** Yields before a waiter starts sleeping (see {@link #acquireSlow}). */
    private static final int YIELDS = 8;
    /** The first sleep of a waiter whose holder does not run; doubled up to the maximum. */
    private static final long MIN_SLEEP_NANOS = 10_000;
    private static final long MAX_SLEEP_NANOS = 1_000_000;

    /** 0 free, 1 held. */
    private volatile int state;

    /** Takes the lock; may yield while waiting (see the class comment). */
    public void lock() {
        if (!STATE.compareAndSet(this, 0, 1)) {
            acquireSlow(STATE, this, true);
        }
    }

    /** Takes the lock while the caller holds another short lock: spins, never yields. */
    public void lockHolding() {
        if (!STATE.compareAndSet(this, 0, 1)) {
            acquireSlow(STATE, this, false);
        }
    }

    /** Releases the lock. */
    public void unlock() {
        STATE.setRelease(this, 0); // release store: publishes the critical section to the next holder
    }

    /**
     * The waiting loop, for primitives that keep their lock word inline (a channel, to save an
     * object per channel): CASes the int field behind {@code word} of {@code holder} from 0 to
     * 1. Spins; then, when {@code mayYield} and the caller may yield, yields a few times; then
     * sleeps with a doubling back-off.
     *
     * <p>Why sleep: a holder that keeps the lock past the spins and yields is almost always a
     * thread the OS descheduled mid-section. A goroutine's {@code Thread.yield()} only requeues
     * it on its own P, so its M keeps the core and a waiter could yield tens of thousands of
     * times (an OS time slice) while the holder waits for that very core (measured on 2 cores:
     * 17,000-23,000 yields per episode). Go's lock2 sleeps on a futex after spinning; here a
     * goroutine's timed park unmounts it and lets its M go idle, and a platform thread sleeps.
     */
    public static void acquireSlow(VarHandle word, Object holder, boolean mayYield) {
        int spins = 0;
        int yields = 0;
        long sleep = MIN_SLEEP_NANOS;
        while (true) {
            if ((int) word.getVolatile(holder) == 0 && word.compareAndSet(holder, 0, 1)) {
                return;
            }
            if (++spins < SPINS || !mayYield) {
                Thread.onSpinWait();
            } else if (!Scheduler.mayYield()) {
                mayYield = false; // inside acquirem: keep spinning, do not ask again
            } else if (yields < YIELDS) {
                yields++;
                Thread.yield();
            } else {
                LockSupport.parkNanos(holder, sleep);
                sleep = Math.min(sleep * 2, MAX_SLEEP_NANOS);
            }
        }
    }
}