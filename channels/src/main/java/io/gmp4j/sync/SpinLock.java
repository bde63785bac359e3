package io.gmp4j.sync;

import io.gmp4j.runtime.Scheduler;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The short internal lock of each sync primitive (Go's runtime {@code mutex} around a sema
 * root). Held only for a few field updates and never across a park, so a waiter spins, then
 * yields its core (or, in a goroutine, its P) to a holder the OS may have descheduled.
 *
 * <p>A holder never parks, yields or passes a safe point inside its critical section, so a
 * spinner (possibly an M running a timer callback) always waits for a thread that runs.
 *
 * <p>Not a {@code ReentrantLock}: a goroutine queued on an AQS lock unmounts and can leave every
 * M blocked behind it, and the deadlock detector would not see it as asleep.
 */
final class SpinLock {
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(SpinLock.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** 0 free, 1 held. */
    private volatile int state;

    void lock() {
        if (!STATE.compareAndSet(this, 0, 1)) {
            lockSlow();
        }
    }

    private void lockSlow() {
        int spins = 0;
        boolean mayYield = true;
        while (true) {
            if (state == 0 && STATE.compareAndSet(this, 0, 1)) {
                return;
            }
            if (++spins < 64 || !mayYield) {
                Thread.onSpinWait();
            } else if (Scheduler.mayYield()) {
                Thread.yield();
            } else {
                mayYield = false; // inside acquirem (as Chan.lock): keep spinning, never unmount
            }
        }
    }

    void unlock() {
        STATE.setRelease(this, 0); // publishes the critical section to the next holder
    }
}
