package io.gmp4j.sync;

import io.gmp4j.runtime.ShortLock;
import io.gmp4j.Go;
import io.gmp4j.runtime.Bubble;
import io.gmp4j.runtime.Scheduler;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Waits for a collection of goroutines to finish: Go's {@code sync.WaitGroup}.
 * {@code wg.Add(n)}, {@code wg.Done()}, {@code wg.Wait()} and Go 1.25's {@code wg.Go(f)} are
 * {@link #add}, {@link #done}, {@link #await} and {@link #go}.
 *
 * <pre>{@code
 * WaitGroup wg = new WaitGroup();
 * for (String url : urls) {
 *     wg.go(() -> fetch(url));   // wg.Add(1); go func() { defer wg.Done(); fetch(url) }()
 * }
 * wg.await();                    // wg.Wait()
 * }</pre>
 *
 * <p>Any thread may add, finish or wait. A goroutine in {@link #await} shows as
 * {@code [sync.WaitGroup.Wait]} in the dump and is asleep for the deadlock detector, so a wait
 * that nothing can end is reported as Go's "all goroutines are asleep - deadlock!". As in Go,
 * calls to {@code add} with a positive delta that start when the counter is zero must happen
 * before the {@code await}. A WaitGroup may be reused once every waiter has returned.
 */
public final class WaitGroup {
    private static final VarHandle COUNT;

    static {
        try {
            COUNT = MethodHandles.lookup().findVarHandle(WaitGroup.class, "count", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private volatile long count;
    private final ShortLock guard = new ShortLock();
    private final WaitList waiters = new WaitList();
    /**
     * The synctest bubble of the first {@link #add} made by a member, or null (Go 1.25: a
     * WaitGroup is associated with the bubble its first Add is called in): a member's
     * {@link #await} on it is then durably blocked. Written once, racily read: a late reader
     * only counts a wait as not durable, which keeps the bubble's clock still, never wrong.
     */
    private volatile Bubble bubble;

    /** A WaitGroup with counter zero (Go's zero {@code sync.WaitGroup}). */
    public WaitGroup() {
    }

    /**
     * Go's {@code wg.Add(delta)}: adds {@code delta}, which may be negative. When the counter
     * reaches zero, every waiter is released.
     *
     * @throws IllegalStateException "sync: negative WaitGroup counter" if the counter would go
     *     below zero (the counter is left unchanged)
     */
    public void add(int delta) {
        if (bubble == null && delta > 0) {
            bubble = Bubble.current();
        }
        long v = (long) COUNT.getAndAdd(this, (long) delta) + delta;
        if (v < 0) {
            COUNT.getAndAdd(this, (long) -delta); // undo, so a caught misuse leaves a usable group
            throw new IllegalStateException("sync: negative WaitGroup counter");
        }
        if (v == 0 && delta != 0) {
            releaseAll();
        }
    }

    /** Go's {@code wg.Done()}: {@code add(-1)}. */
    public void done() {
        add(-1);
    }

    /**
     * Go 1.25's {@code wg.Go(f)}: adds one and runs {@code f} in a new goroutine (of the caller's
     * runtime, else the default one) that calls {@link #done} when {@code f} returns or throws.
     */
    public void go(Runnable f) {
        add(1);
        try {
            Go.go(() -> {
                try {
                    f.run();
                } finally {
                    done();
                }
            });
        } catch (RuntimeException e) {
            done(); // the goroutine never started
            throw e;
        }
    }

    /** Go's {@code wg.Wait()}: waits until the counter is zero. */
    public void await() {
        if (count == 0) {
            return;
        }
        guard.lock();
        // Checked under the guard: the add that reaches zero takes the guard afterwards, so it
        // either sees us queued or we see zero here.
        if (count == 0) {
            guard.unlock();
            return;
        }
        WaitNode me = WaitNode.current(0);
        waiters.enqueue(me);
        guard.unlock();
        Bubble b = bubble;
        me.waiter.park("sync.WaitGroup.Wait", b != null && b == Bubble.current());
        Scheduler.safePoint();
    }

    private void releaseAll() {
        guard.lock();
        if (waiters.isEmpty()) {
            guard.unlock();
            return;
        }
        WaitList woken = waiters.takeAll();
        guard.unlock();
        woken.wakeAll();
    }

    /** The counter now (a snapshot, for diagnostics). */
    public long count() {
        return count;
    }

    @Override
    public String toString() {
        return "WaitGroup[count=" + count + "]";
    }
}
