package io.gmp4j.bench;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;

/**
 * A one-shot "result slot" join, used identically by every implementation (there are no
 * channels yet): the thread that creates it expects {@code n} results; each child adds its
 * value with {@link #complete}, the last one to finish unparks the creator, which waits in
 * {@link #await} with {@link LockSupport#park}.
 *
 * <p>Inside a goroutine or a virtual thread the park yields the carrier, so waiting costs no
 * thread. The sum is added before the count drops, so the creator sees every value once the
 * count reads zero.
 */
public final class Join {
    private static final VarHandle SUM;

    static {
        try {
            SUM = MethodHandles.lookup().findVarHandle(Join.class, "sum", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final AtomicInteger pending;
    private final Thread waiter;
    @SuppressWarnings("unused") // written through SUM
    private volatile long sum;

    /** A join for {@code n} results, awaited by the calling thread. */
    public Join(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("n must be >= 1, got " + n);
        }
        this.pending = new AtomicInteger(n);
        this.waiter = Thread.currentThread();
    }

    /** Adds one child's result; the last child wakes the waiter. */
    public void complete(long value) {
        if (value != 0) {
            SUM.getAndAdd(this, value);
        }
        int left = pending.decrementAndGet();
        if (left == 0) {
            LockSupport.unpark(waiter);
        } else if (left < 0) {
            throw new IllegalStateException("Join completed more times than expected");
        }
    }

    /** Waits (by the creating thread only) until every child completed; returns the sum. */
    public long await() {
        if (Thread.currentThread() != waiter) {
            throw new IllegalStateException("Join.await must be called by the thread that created the join");
        }
        while (pending.get() != 0) {
            LockSupport.park(this);
        }
        return sum;
    }
}
