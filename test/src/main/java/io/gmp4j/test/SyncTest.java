package io.gmp4j.test;

import io.gmp4j.GoRuntime;
import io.gmp4j.runtime.Bubble;
import io.gmp4j.runtime.Scheduler;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Go's {@code testing/synctest}: runs code in a bubble, where time is fake and moves only when
 * every goroutine of the bubble is durably blocked.
 *
 * <pre>{@code
 * SyncTest.run(() -> {
 *     Instant start = Time.now();                      // SyncTest.EPOCH, always
 *     try (Cancelable c = Context.withTimeout(Context.background(), Duration.ofHours(1))) {
 *         c.ctx().done().recv();                       // returns at once, in wall time
 *         assertEquals(Duration.ofHours(1), Time.since(start));   // exactly, in bubble time
 *     }
 * });
 * }</pre>
 *
 * <p><b>The bubble.</b> {@link #run} starts {@code body} as a new goroutine: it and every
 * goroutine started from the bubble (transitively, and by its {@code Time.afterFunc}) are the
 * bubble's; {@code run} returns when all of them have ended. Channels, timers, tickers and
 * contexts' deadlines made in the bubble belong to it; using one of its channels or timers from
 * outside the bubble throws {@link IllegalStateException} (Go panics).
 *
 * <p><b>The clock.</b> {@code io.gmp4j.time} ({@code Time.sleep}, {@code after}, {@code tick},
 * timers, tickers, {@code Time.now()}/{@code since()}), select timeouts and
 * {@code Context.withTimeout}/{@code withDeadline} read the bubble's clock, which starts at
 * {@link #EPOCH} (Go's synctest epoch, the first instant of the year 2000, UTC) and moves only
 * when every goroutine of the bubble is durably blocked: then straight to the next timer, whose
 * expiry wakes who waits.
 *
 * <p><b>Durably blocked</b> (Go's term): parked in a wait that only another goroutine of the
 * bubble can end. That is a send, receive or select on channels made in the bubble (a select
 * whose every channel is the bubble's), {@code Time.sleep} and any wait for a bubble timer, a
 * nil channel and {@code select {}}, and {@link io.gmp4j.sync.WaitGroup#await} on a group first
 * added to in the bubble. Not durable, as in Go: {@code Mutex}, {@code RWMutex},
 * {@code Semaphore} and {@code Once} (such locks are often global, held by code outside the
 * bubble, and held briefly), channels made outside the bubble, sockets and syscalls, and every
 * JDK wait ({@code Thread.sleep}, {@code Future.get}, a {@code java.util.concurrent} lock): a
 * goroutine in one of those counts as running, and the clock waits for it.
 *
 * <p><b>Deadlock.</b> When every goroutine of the bubble is durably blocked and no timer is
 * pending, nothing can ever wake them: {@code run} throws {@link BubbleDeadlockError} with their
 * dump (they stay parked for good, as in Go).
 *
 * <p>Bubbles do not nest. The bubble's goroutines run in the runtime of the caller of
 * {@code run} when it is a goroutine, else in the default runtime.
 */
public final class SyncTest {
    /**
     * Where a bubble's clock starts: Go's synctest epoch, the first instant of the year 2000,
     * UTC.
     */
    public static final Instant EPOCH = Bubble.EPOCH;

    private SyncTest() {
    }

    /**
     * Go's {@code synctest.Run} (and the bubble of {@code synctest.Test}): runs {@code body} in a
     * new bubble and returns when every goroutine of the bubble has ended. Callable from a
     * goroutine or any other thread, but not from inside a bubble.
     *
     * @throws BubbleDeadlockError   when the bubble's goroutines are all durably blocked with no
     *                               timer pending
     * @throws RuntimeException      or {@link Error}: what {@code body} threw, or the first panic
     *                               of another goroutine of the bubble (as is; anything else
     *                               wrapped in an {@link IllegalStateException})
     * @throws IllegalStateException when called from inside a bubble
     */
    public static void run(Runnable body) {
        if (body == null) {
            throw new NullPointerException("SyncTest.run: null body");
        }
        Scheduler s = Scheduler.current();
        if (s == null || !(s.owner() instanceof GoRuntime)) {
            s = Scheduler.of(GoRuntime.defaultRuntime());
        }
        // The body's own failure is caught here, so it is not also a panic of the runtime: run's
        // caller gets it. Other goroutines' panics go to the runtime as any panic, and to run.
        AtomicReference<Throwable> bodyFailed = new AtomicReference<>();
        Bubble b = Bubble.start(s, () -> {
            try {
                body.run();
            } catch (Throwable t) {
                bodyFailed.set(t);
            }
        });
        String deadlock = b.awaitEnd();
        Throwable failure = bodyFailed.get();
        if (failure == null && b.panic() != null) {
            failure = b.panic();
            failure.addSuppressed(new GoroutinePanicked(b.panicGoroutine()));
        }
        if (failure != null) {
            if (deadlock != null) {
                failure.addSuppressed(new BubbleDeadlockError(deadlock));
            }
            if (failure instanceof RuntimeException re) {
                throw re;
            }
            if (failure instanceof Error e) {
                throw e;
            }
            throw new IllegalStateException("synctest bubble: " + failure, failure);
        }
        if (deadlock != null) {
            throw new BubbleDeadlockError(deadlock);
        }
    }

    /**
     * Go's {@code synctest.Wait}: returns when every other goroutine of the caller's bubble is
     * durably blocked (or has ended). The bubble's clock does not move meanwhile. Use it to let
     * the goroutines the test started reach their next wait before checking what they did.
     *
     * @throws IllegalStateException when the caller is not a goroutine of a bubble, or another
     *                               goroutine of the bubble waits already
     */
    public static void await() {
        Bubble.await();
    }

    /** True when the caller is a goroutine of a bubble. */
    public static boolean inBubble() {
        return Bubble.current() != null;
    }

    /** The marker added to a panic of a bubble goroutine other than the body's. */
    private static final class GoroutinePanicked extends RuntimeException {
        private static final long serialVersionUID = 1L;

        GoroutinePanicked(long goid) {
            super("goroutine " + goid + " [running]: panicked in a synctest bubble", null, false, false);
        }
    }
}
