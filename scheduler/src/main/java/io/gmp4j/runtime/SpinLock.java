package io.gmp4j.runtime;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

// The lock word sits on a cache line of its own (superclass fields are laid out first): every M
// CASes it, and it must not drag neighbouring objects' hot fields along.

abstract class SpinLockPad {
    long p00, p01, p02, p03, p04, p05, p06, p07;
}

abstract class SpinLockState extends SpinLockPad {
    volatile int state;
}

/**
 * A non-reentrant test-and-test-and-set lock for the scheduler's short critical sections
 * (Go's runtime {@code mutex}: {@code sched.lock}, the timer heaps).
 *
 * <p>Why not {@code ReentrantLock}: both Ms (platform threads in scheduler code) and goroutines
 * (virtual threads, not pinned) take these locks. A goroutine that waits on a
 * {@code ReentrantLock} unmounts, and when the lock is released it is the queued waiter the
 * lock hands the turn to; if every M is itself blocked behind it in the same queue, nothing is
 * left to run it and the runtime deadlocks (RuntimeTimerTest holds that case). Here a waiter never
 * parks and never queues: whoever wins the CAS holds the lock, and a holder never parks inside
 * the critical section, so the holder is always running on some thread.
 */
final class SpinLock extends SpinLockState {
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(SpinLockState.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Spins before a platform thread starts yielding its core to the holder. */
    private static final int SPINS_BEFORE_YIELD = 128;

    // trailing padding: keeps the next object on the heap off the lock's cache line
    long q00, q01, q02, q03, q04, q05, q06, q07;

    void lock() {
        // CAS with volatile semantics: acquires, and orders the critical section after it
        if (STATE.compareAndSet(this, 0, 1)) {
            return;
        }
        int spins = 0;
        boolean platform = !Thread.currentThread().isVirtual();
        while (true) {
            while (state != 0) {
                if (platform && ++spins > SPINS_BEFORE_YIELD) {
                    // The holder may be descheduled: give it the core. (A virtual thread must
                    // not Thread.yield here: that would unmount it in the middle of an owner
                    // operation.)
                    Thread.yield();
                } else {
                    Thread.onSpinWait();
                }
            }
            if (STATE.compareAndSet(this, 0, 1)) {
                return;
            }
        }
    }

    void unlock() {
        // store-release: publishes the critical section's writes to the next holder
        STATE.setRelease(this, 0);
    }
}
