package io.gmp4j.vertx;

import io.gmp4j.runtime.G;
import io.gmp4j.runtime.Scheduler;
import io.gmp4j.runtime.Waiter;
import io.vertx.core.AsyncResult;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.ThreadingModel;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Blocking-style waits for a Vert.x {@link Future}: {@code T v = await(client.request(...))}.
 *
 * <h2>Who may wait, and how</h2>
 * <ul>
 *   <li><b>A goroutine</b> parks (Go's gopark through {@link Waiter}): its carrier and its P go
 *       on with other goroutines. The future's completion readies it on whichever thread it
 *       completes: from an event loop, a worker or any other thread that is not an M, the
 *       goroutine goes to the global run queue and an idle P is woken (the runtime's rule for
 *       wake-ups from outside); from another goroutine, to that goroutine's runnext.</li>
 *   <li><b>A Vert.x event loop</b> is refused with {@link IllegalStateException}: blocking it
 *       would stall every handler of the loop, and a future completed on that same loop would
 *       never complete. Compose the future there, or hand the work to a goroutine.</li>
 *   <li><b>An M's own code</b> (a behaviour actor, a runtime timer callback) is refused the same
 *       way: it would block a carrier and its P.</li>
 *   <li><b>A thread of a Vert.x virtual-thread context</b> waits with Vert.x's own
 *       {@link Future#await()}, which lets the context run its other tasks meanwhile.</li>
 *   <li><b>Any other thread</b> (a plain platform thread such as {@code main} or a test's, a
 *       Vert.x worker, a JDK virtual thread) blocks until the future completes. That is what a
 *       caller of a blocking method expects, it costs the runtime nothing (the thread is no
 *       carrier), and it is how a program outside any goroutine (a {@code main} that starts a
 *       server, a test) reads a result without wrapping itself in a goroutine.</li>
 * </ul>
 *
 * <h2>Results</h2>
 * A succeeded future gives its value (null included). A failed one throws its failure as is
 * when it is unchecked (a {@link RuntimeException} or an {@link Error}); a checked failure comes
 * wrapped in {@link AwaitException}, whose cause it is. The timed variant throws
 * {@link AwaitTimeoutException} when the timeout passes first; the future is not cancelled
 * (Vert.x futures cannot be) and may still complete later, unobserved. Waits are not
 * interruptible, as gmp4j's waits are not: an interrupt is kept and re-asserted when the wait
 * ends.
 *
 * <h2>Deadlock detection</h2>
 * An untimed wait of a goroutine counts as a wait that something outside the runtime ends (as
 * a network wait does): while one lasts, the runtime does not report "all goroutines are
 * asleep", since an event loop may complete the future at any time.
 */
public final class Await {
    private Await() {
    }

    /** The wait reason shown in the goroutine dump. */
    static final String WAIT_REASON = "vertx await";

    /**
     * Waits for {@code future} to complete and returns its value.
     *
     * @param future the future to wait for
     * @param <T>    the value's type
     * @return the future's value (may be null)
     * @throws IllegalStateException when called on a Vert.x event loop or by an M's own code
     * @throws AwaitException        wrapping a checked failure of the future
     * @throws RuntimeException      the future's unchecked failure, as is (an {@link Error} too)
     */
    public static <T> T await(Future<T> future) {
        Objects.requireNonNull(future, "future");
        if (future.isComplete()) {
            return outcome(future);
        }
        checkMayBlock("await");
        if (onVirtualThreadContext()) {
            try {
                return future.await();
            } catch (Throwable t) { // Vert.x rethrows a checked failure unchecked: wrap it here too
                throw rethrow(t);
            }
        }
        Waiter w = Waiter.current();
        // One waker (the completion), so no claim: Waiter's one-wake-per-park contract holds.
        // An already-complete future calls the handler here, before the park: the wake is then
        // a permit and the park returns at once.
        boolean goroutine = w.goroutine() != null;
        if (goroutine) {
            Scheduler.platformWait(true); // an outside party ends this wait: not "asleep" for checkdead
        }
        try {
            future.onComplete(ar -> w.wake());
            w.park(WAIT_REASON);
        } finally {
            if (goroutine) {
                Scheduler.platformWait(false);
            }
        }
        return outcome(future);
    }

    /**
     * {@link #await(Future)} that gives up after {@code timeout}.
     *
     * @param future  the future to wait for
     * @param timeout how long to wait at most; zero or negative: only a future already complete
     * @param <T>     the value's type
     * @return the future's value (may be null)
     * @throws AwaitTimeoutException when the future is not complete in time
     * @throws IllegalStateException when called on a Vert.x event loop or by an M's own code
     * @throws AwaitException        wrapping a checked failure of the future
     * @throws RuntimeException      the future's unchecked failure, as is (an {@link Error} too)
     */
    public static <T> T await(Future<T> future, Duration timeout) {
        Objects.requireNonNull(future, "future");
        Objects.requireNonNull(timeout, "timeout");
        if (future.isComplete()) {
            return outcome(future);
        }
        checkMayBlock("await");
        if (timeout.isNegative() || timeout.isZero()) {
            throw new AwaitTimeoutException(timeout);
        }
        long nanos = saturatedNanos(timeout);
        if (onVirtualThreadContext()) {
            try {
                return future.await(nanos, TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                throw new AwaitTimeoutException(timeout);
            } catch (Throwable t) {
                throw rethrow(t);
            }
        }
        Waiter w = Waiter.current();
        long deadline = System.nanoTime() + nanos;
        // Two candidate wakers (the completion and the deadline): each claims first.
        future.onComplete((AsyncResult<T> ar) -> {
            if (w.claim(future)) {
                w.wake();
            }
        });
        if (!w.park(WAIT_REASON, deadline)) {
            throw new AwaitTimeoutException(timeout);
        }
        return outcome(future);
    }

    /**
     * Refuses a blocking wait where it would block a Vert.x event loop or an M.
     *
     * @param what the operation, for the message
     */
    static void checkMayBlock(String what) {
        if (Context.isOnEventLoopThread()) {
            throw new IllegalStateException(what + " on the Vert.x event loop thread "
                    + Thread.currentThread().getName() + " would block the loop: compose the future "
                    + "(map, compose, onComplete) or run this code in a goroutine (Go.go)");
        }
        if (Scheduler.runningOnM()) {
            throw new IllegalStateException(what + " by code running directly on a gmp4j M (a behaviour "
                    + "actor or a timer callback) would block the carrier and its P: run it in a goroutine");
        }
    }

    private static boolean onVirtualThreadContext() {
        Context ctx = Vertx.currentContext();
        return ctx != null && ctx.threadingModel() == ThreadingModel.VIRTUAL_THREAD
                && Thread.currentThread().isVirtual() && G.current() == null;
    }

    private static long saturatedNanos(Duration d) {
        try {
            return d.toNanos();
        } catch (ArithmeticException e) {
            return Long.MAX_VALUE / 2;
        }
    }

    private static <T> T outcome(Future<T> f) {
        if (f.succeeded()) {
            return f.result();
        }
        throw rethrow(f.cause());
    }

    private static RuntimeException rethrow(Throwable t) {
        if (t instanceof RuntimeException r) {
            throw r;
        }
        if (t instanceof Error e) {
            throw e;
        }
        throw new AwaitException("Vert.x future failed: " + t, t);
    }
}
