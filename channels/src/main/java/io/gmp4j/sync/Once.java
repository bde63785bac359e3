package io.gmp4j.sync;

import io.gmp4j.runtime.ShortLock;
import io.gmp4j.runtime.Scheduler;

/**
 * Performs one action exactly once: Go's {@code sync.Once}; {@code once.Do(f)} is
 * {@link #run}.
 *
 * <p>The first caller runs {@code f}; every concurrent caller waits until it has finished, so
 * that when any {@code run} returns, {@code f}'s effects are visible. As in Go, if {@code f}
 * throws, the Once is done all the same (the exception reaches only the first caller; later
 * calls do nothing), and calling {@code run} from inside {@code f} deadlocks. Waiters park
 * through the runtime as Go's do on the Once's mutex: the dump shows {@code [sync.Mutex.Lock]}.
 */
public final class Once {
    private volatile boolean done;
    private final ShortLock guard = new ShortLock();
    // Guarded by guard.
    private boolean running;
    private final WaitList waiters = new WaitList();

    /** A Once that has not run (Go's zero {@code sync.Once}). */
    public Once() {
    }

    /**
     * Go's {@code once.Do(f)}: runs {@code f} if no call of this Once has; otherwise waits until
     * that first call has finished.
     */
    public void run(Runnable f) {
        if (done) {
            return;
        }
        guard.lock();
        if (done) {
            guard.unlock();
            return;
        }
        if (running) {
            WaitNode me = WaitNode.current(0);
            waiters.enqueue(me);
            guard.unlock();
            me.waiter.park("sync.Mutex.Lock");
            Scheduler.safePoint();
            return;
        }
        running = true;
        guard.unlock();
        try {
            f.run();
        } finally {
            finish();
        }
    }

    private void finish() {
        guard.lock();
        done = true;
        running = false;
        WaitList woken = waiters.takeAll();
        guard.unlock();
        woken.wakeAll();
    }

    /** True once the first {@link #run} has finished (a snapshot). */
    public boolean isDone() {
        return done;
    }
}
