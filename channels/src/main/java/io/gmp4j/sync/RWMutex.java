package io.gmp4j.sync;

import io.gmp4j.runtime.ShortLock;
import io.gmp4j.runtime.Scheduler;

/**
 * A reader/writer mutual exclusion lock: Go's {@code sync.RWMutex}. Any number of readers or
 * one writer hold it. {@code RLock/RUnlock/Lock/Unlock/TryLock/TryRLock} are
 * {@link #rlock}/{@link #runlock}/{@link #lock}/{@link #unlock}/{@link #tryLock}/{@link #tryRLock}.
 *
 * <p>As in Go, a writer waiting for the lock blocks new readers (so a stream of readers cannot
 * starve it), and when a writer unlocks, the readers that queued behind it are all admitted
 * before the next writer (so writers cannot starve readers either). Writers are served FIFO.
 * Consequently a reader must not take a second read lock it needs to release the first: with a
 * writer queued in between, that deadlocks, as in Go. Not reentrant, not owned by a thread.
 *
 * <p>Waits park through the runtime: the dump shows {@code [sync.RWMutex.RLock]} or
 * {@code [sync.RWMutex.Lock]}, and the deadlock detector sees them as asleep.
 */
public final class RWMutex implements Locker {
    private final ShortLock guard = new ShortLock();
    // All guarded by guard.
    private int readers;
    private boolean writer;
    private final WaitList waitingReaders = new WaitList();
    private final WaitList waitingWriters = new WaitList();

    /** An unlocked RWMutex (Go's zero {@code sync.RWMutex}). */
    public RWMutex() {
    }

    /**
     * Go's {@code rw.RLock()}: locks for reading; waits while a writer holds the lock or waits
     * for it.
     */
    public void rlock() {
        guard.lock();
        if (!writer && waitingWriters.isEmpty()) {
            readers++;
            guard.unlock();
            return;
        }
        WaitNode me = WaitNode.current(0);
        waitingReaders.enqueue(me);
        guard.unlock();
        me.waiter.park("sync.RWMutex.RLock");
        Scheduler.safePoint(); // admitted by the writer's unlock, which counted us in
    }

    /**
     * Go's {@code rw.TryRLock()}: locks for reading only if no writer holds or awaits the lock.
     *
     * @return true if the caller now holds a read lock
     */
    public boolean tryRLock() {
        guard.lock();
        boolean ok = !writer && waitingWriters.isEmpty();
        if (ok) {
            readers++;
        }
        guard.unlock();
        return ok;
    }

    /**
     * Go's {@code rw.RUnlock()}: releases one read lock; the last reader out hands the lock to
     * the first waiting writer.
     *
     * @throws IllegalStateException "sync: RUnlock of unlocked RWMutex"
     */
    public void runlock() {
        guard.lock();
        if (readers == 0) {
            guard.unlock();
            throw new IllegalStateException("sync: RUnlock of unlocked RWMutex");
        }
        WaitNode w = null;
        if (--readers == 0 && !waitingWriters.isEmpty()) {
            w = waitingWriters.poll();
            writer = true;
        }
        guard.unlock();
        if (w != null) {
            w.waiter.wake();
        }
    }

    /** Go's {@code rw.Lock()}: locks for writing; waits for the readers and writers before it. */
    @Override
    public void lock() {
        guard.lock();
        if (!writer && readers == 0 && waitingWriters.isEmpty()) {
            writer = true;
            guard.unlock();
            return;
        }
        WaitNode me = WaitNode.current(1);
        waitingWriters.enqueue(me);
        guard.unlock();
        me.waiter.park("sync.RWMutex.Lock");
        Scheduler.safePoint(); // handed the lock by an unlock or the last runlock
    }

    /**
     * Go's {@code rw.TryLock()}: locks for writing only if nobody holds or awaits the lock.
     *
     * @return true if the caller now holds the write lock
     */
    public boolean tryLock() {
        guard.lock();
        boolean ok = !writer && readers == 0 && waitingWriters.isEmpty();
        if (ok) {
            writer = true;
        }
        guard.unlock();
        return ok;
    }

    /**
     * Go's {@code rw.Unlock()}: releases the write lock. Readers that waited are admitted
     * together; if there are none, the next writer gets the lock.
     *
     * @throws IllegalStateException "sync: Unlock of unlocked RWMutex"
     */
    @Override
    public void unlock() {
        guard.lock();
        if (!writer) {
            guard.unlock();
            throw new IllegalStateException("sync: Unlock of unlocked RWMutex");
        }
        writer = false;
        WaitNode wake = null;
        if (!waitingReaders.isEmpty()) {
            // Admit every queued reader at once (counted in now, woken after the guard).
            readers += waitingReaders.size();
            WaitList admitted = waitingReaders.takeAll();
            guard.unlock();
            admitted.wakeAll();
            return;
        }
        if (!waitingWriters.isEmpty()) {
            wake = waitingWriters.poll();
            writer = true;
        }
        guard.unlock();
        if (wake != null) {
            wake.waiter.wake();
        }
    }

    /**
     * Go's {@code rw.RLocker()}: a view whose lock/unlock are this mutex's rlock/runlock.
     *
     * @return a mutex-like view; calls go straight to {@link #rlock} and {@link #runlock}
     */
    public Locker rlocker() {
        return new Locker() {
            @Override
            public void lock() {
                rlock();
            }

            @Override
            public void unlock() {
                runlock();
            }
        };
    }

    @Override
    public String toString() {
        guard.lock();
        int r = readers;
        boolean w = writer;
        int wr = waitingReaders.size();
        int ww = waitingWriters.size();
        guard.unlock();
        return "RWMutex[readers=" + r + (w ? ", writer" : "") + ", waiting readers=" + wr + ", waiting writers=" + ww + "]";
    }
}
