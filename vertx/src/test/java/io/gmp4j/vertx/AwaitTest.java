package io.gmp4j.vertx;

import io.gmp4j.DeadlockError;
import io.gmp4j.GoRuntime;
import io.gmp4j.NoUncaughtExceptions;
import io.gmp4j.TestSupport;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Await on a real Vert.x instance: a goroutine parked on a future is readied by its completion
 * on an event loop, a worker or a platform thread; failures, timeouts, the refusal on an event
 * loop, platform-thread callers, 10,000 awaits at once, and no false deadlock report.
 */
@ExtendWith(NoUncaughtExceptions.class)
class AwaitTest {
    private Vertx vertx;
    private GoRuntime rt;

    @BeforeEach
    void start() {
        vertx = Vertx.vertx();
        rt = GoRuntime.builder().maxProcs(2).name("vertx-await").build();
    }

    @AfterEach
    void stop() {
        VertxTestSupport.close(vertx);
        rt.close();
    }

    /** Runs {@code complete} once the goroutine awaiting {@code p} has parked in Await. */
    private String awaitCompletedBy(Promise<String> p, Runnable complete) {
        AtomicReference<Thread> waiter = new AtomicReference<>();
        AtomicReference<String> got = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(1);
        rt.go(() -> {
            waiter.set(Thread.currentThread());
            got.set(Await.await(p.future()));
            done.countDown();
        });
        TestSupport.awaitCondition(() -> VertxTestSupport.parkedIn(waiter.get(), Await.class, "await"),
                () -> "the goroutine never parked in Await.await: " + rt.dump());
        complete.run();
        TestSupport.await(done, () -> "the parked goroutine was not readied: " + rt.dump());
        return got.get();
    }

    @Test
    void aGoroutineParksAndIsReadiedFromAnEventLoop() {
        Promise<String> p = Promise.promise();
        AtomicReference<String> completer = new AtomicReference<>();
        String v = awaitCompletedBy(p, () -> vertx.getOrCreateContext().runOnContext(x -> {
            completer.set(Context.isOnEventLoopThread() ? "event loop" : Thread.currentThread().getName());
            p.complete("from the loop");
        }));
        assertEquals("from the loop", v);
        assertEquals("event loop", completer.get());
        // a future Vert.x completes on its own loop (a timer)
        TestSupport.runInGoroutine(rt, () -> assertEquals("fired", Await.await(vertx.timer(5).map("fired"))));
    }

    @Test
    void aGoroutineIsReadiedFromAWorkerAndFromAPlatformThread() {
        Promise<String> p = Promise.promise();
        AtomicReference<Boolean> onWorker = new AtomicReference<>();
        assertEquals("from a worker", awaitCompletedBy(p, () -> vertx.executeBlocking(() -> {
            onWorker.set(Context.isOnWorkerThread());
            p.complete("from a worker");
            return null;
        })));
        assertTrue(onWorker.get());
        Promise<String> q = Promise.promise();
        assertEquals("from a thread", awaitCompletedBy(q, () -> Thread.ofPlatform().start(() -> q.complete("from a thread"))));
        Promise<String> r = Promise.promise();
        assertEquals("from a goroutine", awaitCompletedBy(r, () -> rt.go(() -> r.complete("from a goroutine"))));
    }

    @Test
    void platformThreadsAndWorkersBlockUntilTheFutureCompletes() {
        Promise<String> p = Promise.promise();
        vertx.setTimer(5, id -> p.complete("timer"));
        assertEquals("timer", Await.await(p.future()), "the test's own platform thread blocks");
        Promise<Integer> q = Promise.promise();
        Future<Integer> onWorker = vertx.executeBlocking(() -> {
            assertTrue(Context.isOnWorkerThread());
            vertx.setTimer(5, id -> q.complete(42));
            return Await.await(q.future()); // a worker may block: Vert.x's rule for blocking code
        });
        assertEquals(42, VertxTestSupport.join(onWorker));
        assertNull(Await.await(Future.succeededFuture()), "a complete future's null value");
    }

    @Test
    void failuresComeBackAsTheExceptionAndCheckedOnesWrapped() {
        TestSupport.runInGoroutine(rt, () -> {
            IllegalArgumentException bad = new IllegalArgumentException("bad");
            Promise<String> p = Promise.promise();
            vertx.setTimer(1, id -> p.fail(bad));
            assertSame(bad, assertThrows(IllegalArgumentException.class, () -> Await.await(p.future())));
            IOException io = new IOException("disk");
            Promise<String> q = Promise.promise();
            vertx.setTimer(1, id -> q.fail(io));
            AwaitException e = assertThrows(AwaitException.class, () -> Await.await(q.future()));
            assertSame(io, e.getCause());
            assertFalse(e instanceof AwaitTimeoutException);
            assertSame(io, assertThrows(AwaitException.class,
                    () -> Await.await(Future.failedFuture(io), Duration.ofSeconds(1))).getCause());
        });
        // a platform thread too
        IOException io = new IOException("net");
        assertSame(io, assertThrows(AwaitException.class, () -> Await.await(vertx.timer(1).compose(
                x -> Future.failedFuture(io)))).getCause());
    }

    @Test
    void aTimedAwaitGivesUpAndTheLateCompletionHarmsNothing() {
        Promise<String> never = Promise.promise();
        Promise<String> late = Promise.promise();
        TestSupport.runInGoroutine(rt, () -> {
            AwaitTimeoutException e = assertThrows(AwaitTimeoutException.class,
                    () -> Await.await(never.future(), Duration.ofMillis(30)));
            assertEquals(Duration.ofMillis(30), e.timeout());
            assertThrows(AwaitTimeoutException.class, () -> Await.await(late.future(), Duration.ofMillis(10)));
            late.complete("late"); // wakes nobody: the timeout won the claim
            assertThrows(AwaitTimeoutException.class, () -> Await.await(never.future(), Duration.ZERO));
            // the goroutine's next wait is not disturbed by the earlier waits' leftovers
            Promise<String> next = Promise.promise();
            vertx.setTimer(5, id -> next.complete("next"));
            assertEquals("next", Await.await(next.future(), Duration.ofSeconds(TestSupport.TIMEOUT_S)));
        });
        assertThrows(AwaitTimeoutException.class, () -> Await.await(never.future(), Duration.ofMillis(20)),
                "a platform thread's timed wait");
        assertEquals("late", Await.await(late.future(), Duration.ofMillis(1)), "complete: no wait");
    }

    @Test
    void anEventLoopIsRefusedInsteadOfBlocked() {
        Promise<String> p = Promise.promise();
        Future<Throwable> refused = Future.future(result -> vertx.getOrCreateContext().runOnContext(v -> {
            try {
                Await.await(p.future());
                result.fail("await blocked the event loop and returned");
            } catch (IllegalStateException e) {
                result.complete(e);
            }
        }));
        Throwable e = VertxTestSupport.join(refused);
        assertTrue(e.getMessage().contains("event loop"), e.getMessage());
        assertFalse(p.future().isComplete());
        // a complete future is fine anywhere: no wait
        assertEquals("done", VertxTestSupport.join(Future.<String>future(result -> vertx.runOnContext(
                v -> result.complete(Await.await(Future.succeededFuture("done")))))));
    }

    @Test
    void tenThousandGoroutinesAwaitAtOnceAndEachGetsItsOwnValue() {
        int n = 10_000;
        List<Promise<Integer>> promises = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            promises.add(Promise.promise());
        }
        AtomicInteger started = new AtomicInteger();
        AtomicInteger wrong = new AtomicInteger();
        AtomicLong sum = new AtomicLong();
        CountDownLatch done = new CountDownLatch(n);
        for (int i = 0; i < n; i++) {
            int k = i;
            rt.go(() -> {
                started.incrementAndGet();
                int v = Await.await(promises.get(k).future());
                if (v != k * 3) {
                    wrong.incrementAndGet();
                }
                sum.addAndGet(v);
                done.countDown();
            });
        }
        TestSupport.awaitCondition(() -> started.get() == n, () -> "started " + started.get());
        assertEquals(n, done.getCount(), "nothing completes before its future does");
        // Complete them from four event loops and from a platform thread, interleaved.
        int loops = 4;
        for (int c = 0; c < loops; c++) {
            int first = c;
            vertx.getOrCreateContext().runOnContext(v -> {
                for (int i = first; i < n; i += loops + 1) {
                    promises.get(i).complete(i * 3);
                }
            });
        }
        Thread.ofPlatform().start(() -> {
            for (int i = loops; i < n; i += loops + 1) {
                promises.get(i).complete(i * 3);
            }
        });
        TestSupport.await(done, () -> "awaits left " + done.getCount() + ": " + rt.stats());
        assertEquals(0, wrong.get());
        assertEquals(3L * n * (n - 1) / 2, sum.get());
    }

    /**
     * A main goroutine that waits for Vert.x is not asleep: an event loop will wake it. A
     * runtime that took the wait for one of its own would report a deadlock here.
     */
    @Test
    void mainAwaitingVertxIsNoDeadlock() throws InterruptedException {
        Promise<String> p = Promise.promise();
        AtomicReference<String> got = new AtomicReference<>();
        AtomicReference<Thread> main = new AtomicReference<>();
        Thread completer = Thread.ofPlatform().start(() -> {
            TestSupport.awaitCondition(() -> VertxTestSupport.parkedIn(main.get(), Await.class, "await"),
                    () -> "main never parked in Await.await");
            // every M idles while main waits: that is when checkdead runs; then the loop completes it
            vertx.setTimer(50, id -> p.complete("woken"));
        });
        Throwable t = TestSupport.runMain(rt, () -> {
            main.set(Thread.currentThread());
            got.set(Await.await(p.future()));
        });
        completer.join();
        assertFalse(t instanceof DeadlockError, () -> "reported a deadlock: " + t);
        assertNull(t);
        assertEquals("woken", got.get());
    }

    @Test
    void badArgumentsAreRefused() {
        assertThrows(NullPointerException.class, () -> Await.await(null));
        assertThrows(NullPointerException.class, () -> Await.await(Future.succeededFuture(), null));
    }
}
