package io.gmp4j.sync;

import io.gmp4j.runtime.ShortLock;
import io.gmp4j.runtime.Scheduler;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A mutual exclusion lock: Go's {@code sync.Mutex}. {@code mu.Lock()} is {@link #lock()},
 * {@code mu.Unlock()} is {@link #unlock()}, {@code mu.TryLock()} is {@link #tryLock()}.
 *
 * <pre>{@code
 * mu.lock();
 * try {
 *     count++;
 * } finally {
 *     mu.unlock();           // defer mu.Unlock()
 * }
 * }</pre>
 *
 * <p>Works from goroutines and any other thread. A goroutine waiting for it parks through the
 * runtime, so it shows as {@code [sync.Mutex.Lock]} in the goroutine dump and counts as asleep
 * for the deadlock detector. Like Go's, it is not reentrant and not owned by a thread: any
 * thread may unlock a locked mutex.
 *
 * <h2>Fairness: always Go's starvation mode</h2>
 * An uncontended lock is one CAS. Once a thread waits, the mutex is strictly FIFO: unlock hands
 * ownership directly to the longest waiter (the state stays locked, so a newcomer cannot barge
 * in), which is what Go's mutex does in starvation mode. Go's normal mode (a woken waiter
 * competes with newcomers) trades this fairness for throughput; this mutex does not, so no
 * waiter can be starved, at the price of a park/wake per contended hand-over.
 */
public final class Mutex implements Locker {
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(Mutex.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static final int LOCKED = 1;
    /** Some thread is queued; set and cleared only under {@link #guard}. */
    private static final int WAITERS = 2;

    private volatile int state;
    private final ShortLock guard = new ShortLock();
    private final WaitList waiters = new WaitList();

    /** An unlocked mutex (Go's zero {@code sync.Mutex}). */
    public Mutex() {
    }

    /** Go's {@code mu.Lock()}: locks, waiting (FIFO) while another holder has it. */
    @Override
    public void lock() {
        if (!STATE.compareAndSet(this, 0, LOCKED)) {
            lockSlow();
        }
    }

    private void lockSlow() {
        guard.lock();
        while (true) {
            int s = state;
            if ((s & LOCKED) == 0) {
                // Unlocked and (WAITERS is clear when unlocked) nobody queued: take it.
                if (STATE.compareAndSet(this, s, s | LOCKED)) {
                    guard.unlock();
                    return;
                }
            } else if (STATE.compareAndSet(this, s, s | WAITERS)) {
                break; // the holder's unlock now takes the slow path and hands over to us
            }
        }
        WaitNode me = WaitNode.current(0);
        waiters.enqueue(me);
        guard.unlock();
        me.waiter.park("sync.Mutex.Lock");
        // Woken by unlock with ownership handed over: the state stayed LOCKED for us.
        Scheduler.safePoint();
    }

    /**
     * Go's {@code mu.TryLock()}: locks only if that needs no wait.
     *
     * @return true if the caller now holds the lock
     */
    public boolean tryLock() {
        return STATE.compareAndSet(this, 0, LOCKED);
    }

    /**
     * Go's {@code mu.Unlock()}: unlocks, handing the lock to the longest waiter if there is one.
     *
     * @throws IllegalStateException "sync: unlock of unlocked mutex" (Go's fatal error)
     */
    @Override
    public void unlock() {
        if (STATE.compareAndSet(this, LOCKED, 0)) {
            return;
        }
        guard.lock();
        int s = state;
        if ((s & LOCKED) == 0) {
            guard.unlock();
            throw new IllegalStateException("sync: unlock of unlocked mutex");
        }
        WaitNode next = waiters.poll();
        // WAITERS is only set under the guard while locked, so a queued thread exists here
        // unless the state is plain LOCKED (a racing fast unlock failed for another reason).
        STATE.setVolatile(this, next == null ? 0 : (waiters.isEmpty() ? LOCKED : LOCKED | WAITERS));
        guard.unlock();
        if (next != null) {
            next.granted = true;
            next.waiter.wake();
        }
    }

    /** True if some thread holds the lock now (a snapshot, for diagnostics). */
    public boolean isLocked() {
        return (state & LOCKED) != 0;
    }

    @Override
    public String toString() {
        int s = state;
        return "Mutex[" + ((s & LOCKED) != 0 ? "locked" : "unlocked") + ((s & WAITERS) != 0 ? ", waiters]" : "]");
    }
}
