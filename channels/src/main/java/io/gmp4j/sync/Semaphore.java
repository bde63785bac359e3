package io.gmp4j.sync;

import io.gmp4j.runtime.ShortLock;
import io.gmp4j.context.Context;
import io.gmp4j.context.ContextException;
import io.gmp4j.context.StopFunc;
import io.gmp4j.runtime.Scheduler;
import io.gmp4j.runtime.Waiter;

/**
 * A weighted semaphore: {@code golang.org/x/sync/semaphore.Weighted}. {@code NewWeighted(n)},
 * {@code Acquire(ctx, n)}, {@code TryAcquire(n)} and {@code Release(n)} are
 * {@link #Semaphore(long)}, {@link #acquire(Context, long)}, {@link #tryAcquire} and
 * {@link #release}.
 *
 * <p>Strictly FIFO, as Go's: a request that does not fit waits, and every later request waits
 * behind it even if it would fit (so a large request is not starved by small ones). Waits park
 * through the runtime ({@code [semacquire]} in the dump). A wait given a context ends when the
 * context is done: the request is withdrawn, and the smaller requests it was holding back may
 * proceed.
 */
public final class Semaphore {
    /** Claim token of a wait ended by its context. */
    private static final Object CANCELED = new Object();

    private final long size;
    private final ShortLock guard = new ShortLock();
    // Guarded by guard.
    private long cur;
    private final WaitList waiters = new WaitList();

    /**
     * Go's {@code semaphore.NewWeighted(n)}: a semaphore with total weight {@code n}.
     *
     * @throws IllegalArgumentException if n is negative
     */
    public Semaphore(long n) {
        if (n < 0) {
            throw new IllegalArgumentException("semaphore: negative size " + n);
        }
        this.size = n;
    }

    /**
     * {@code s.Acquire(context.Background(), n)}: acquires weight {@code n}, waiting as long as
     * it takes.
     *
     * @throws IllegalArgumentException if n is negative or larger than the size (a wait that
     *     could never end)
     */
    public void acquire(long n) {
        acquire(Context.background(), n);
    }

    /**
     * Go's {@code s.Acquire(ctx, n)}: acquires weight {@code n}, waiting until it is available
     * or {@code ctx} is done. On failure nothing is acquired.
     *
     * @throws ContextException {@code ctx.err()} if the context is done first (or already was)
     * @throws IllegalArgumentException if n is negative, or larger than the size with a context
     *     that can never be done
     */
    public void acquire(Context ctx, long n) {
        check(n);
        ContextException e = ctx.err();
        if (e != null) {
            throw e; // Go checks ctx.Done() first, so a done context never acquires
        }
        guard.lock();
        if (size - cur >= n && waiters.isEmpty()) {
            cur += n;
            guard.unlock();
            return;
        }
        if (n > size) {
            guard.unlock();
            waitForDoneOnly(ctx, n);
            return;
        }
        WaitNode me = WaitNode.current(n);
        Waiter w = me.waiter;
        waiters.enqueue(me);
        guard.unlock();
        StopFunc stop = Context.onDone(ctx, () -> {
            if (w.claim(CANCELED)) {
                w.wake();
            }
        });
        w.park("semacquire");
        if (w.claimedBy() != CANCELED) {
            stop.stop(); // acquired: release's claim won
            Scheduler.safePoint();
            return;
        }
        // Canceled: withdraw the request. If it was at the head holding others back, they may
        // fit now (Go: "if we're at the front and there're extra tokens left, notify others").
        WaitList wake = new WaitList();
        guard.lock();
        waiters.remove(me);
        grant(wake);
        guard.unlock();
        wakeAll(wake);
        throw ctx.err();
    }

    private void waitForDoneOnly(Context ctx, long n) {
        if (ctx.done() == Context.background().done()) { // the shared never-closed channel
            throw new IllegalArgumentException("semaphore: acquire(" + n + ") exceeds size " + size + " and can never succeed");
        }
        ctx.done().recv(); // Go: <-ctx.Done(); return ctx.Err()
        throw ctx.err();
    }

    /**
     * Go's {@code s.TryAcquire(n)}: acquires weight {@code n} only if it is available now and
     * nobody is waiting.
     *
     * @return true if acquired
     */
    public boolean tryAcquire(long n) {
        check(n);
        guard.lock();
        boolean ok = size - cur >= n && waiters.isEmpty();
        if (ok) {
            cur += n;
        }
        guard.unlock();
        return ok;
    }

    /**
     * Go's {@code s.Release(n)}: releases weight {@code n} and grants waiting requests in FIFO
     * order while the head one fits.
     *
     * @throws IllegalStateException "semaphore: released more than held"
     */
    public void release(long n) {
        check(n);
        WaitList wake = new WaitList();
        guard.lock();
        if (cur - n < 0) {
            guard.unlock();
            throw new IllegalStateException("semaphore: released more than held");
        }
        cur -= n;
        grant(wake);
        guard.unlock();
        wakeAll(wake);
    }

    /** Go's notifyWaiters. Called under guard: grants heads that fit; moves them to {@code wake}. */
    private void grant(WaitList wake) {
        WaitNode head;
        while ((head = waiters.peek()) != null) {
            if (size - cur < head.need) {
                break; // the head blocks everyone behind it: FIFO, no barging
            }
            waiters.remove(head);
            if (!head.waiter.claim(head)) {
                continue; // its context ended the wait first; it withdraws itself
            }
            cur += head.need;
            head.granted = true;
            wake.enqueue(head);
        }
    }

    private static void wakeAll(WaitList wake) {
        WaitNode n;
        while ((n = wake.poll()) != null) {
            n.waiter.wake();
        }
    }

    private static void check(long n) {
        if (n < 0) {
            throw new IllegalArgumentException("semaphore: negative weight " + n);
        }
    }

    /** Weight held now (a snapshot, for diagnostics and tests). */
    public long held() {
        guard.lock();
        long c = cur;
        guard.unlock();
        return c;
    }

    /** Requests waiting now (a snapshot, for tests). */
    int waiting() {
        guard.lock();
        int q = waiters.size();
        guard.unlock();
        return q;
    }

    /** Go's size: the total weight. */
    public long size() {
        return size;
    }

    @Override
    public String toString() {
        guard.lock();
        long c = cur;
        int q = waiters.size();
        guard.unlock();
        return "Semaphore[" + c + "/" + size + ", waiting=" + q + "]";
    }
}
