package io.gmp4j;

import io.gmp4j.runtime.G;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;

import static org.junit.jupiter.api.Assertions.*;

/**
 * checkdead counts only goroutines parked in {@link G#park} as asleep, over the whole process:
 * a goroutine in Go.main blocked in a JDK wait that a platform thread completes, or parked in
 * G.park while a goroutine of another runtime will ready it, is never reported.
 *
 * <p>Each waker first waits until the blocked goroutine is off its M and every M of the
 * default runtime is idle: the last M's stopm ran checkdead with the goroutine blocked, so a
 * wrong "asleep" verdict reaches Go.main before the wait ends (the first of main's outcomes
 * wins) and Go.main throws {@link DeadlockError}.
 */
@ExtendWith(NoUncaughtExceptions.class)
class DeadlockNotAsleepTest {

    /** Runs {@code body} as Go.main's main goroutine; returns what Go.main threw or what body threw. */
    private static Throwable goMain(TestSupport.Body body) {
        AtomicReference<Throwable> inBody = new AtomicReference<>();
        try {
            Go.main(() -> {
                try {
                    body.run();
                } catch (Throwable t) {
                    inBody.set(t); // recorded, not thrown: a panic under Go.main ends the JVM
                }
            });
        } catch (Throwable t) {
            return t;
        }
        return inBody.get();
    }

    /** Waits until {@code g}'s thread is off its carrier in a JDK wait and the default runtime's Ms are idle. */
    private static void awaitBlockedAndIdle(Thread g) {
        GoRuntime rt = GoRuntime.defaultRuntime();
        TestSupport.awaitCondition(() -> {
            Thread.State s = g.getState();
            return s == Thread.State.WAITING || s == Thread.State.TIMED_WAITING || s == Thread.State.BLOCKED;
        }, () -> "goroutine never blocked: " + g.getState());
        TestSupport.awaitCondition(() -> allIdle(rt.stats()), () -> "the default runtime never went idle: " + rt.stats());
    }

    private static boolean allIdle(SchedStats s) {
        return s.threads() > 1 && s.idleThreads() == s.threads() - 1; // threads counts sysmon
    }

    private static Thread platform(Runnable r) {
        return Thread.ofPlatform().daemon().name("waker").start(r);
    }

    @Test
    void threadJoinOnAPlatformThreadIsNotADeadlock() {
        Throwable t = goMain(() -> {
            Thread self = Thread.currentThread();
            Thread waker = platform(() -> awaitBlockedAndIdle(self));
            waker.join();
            assertFalse(waker.isAlive());
        });
        assertNull(t, () -> "unexpected " + t);
    }

    @Test
    void futureCompletedLaterByAPlatformThreadIsNotADeadlock() {
        Throwable t = goMain(() -> {
            Thread self = Thread.currentThread();
            CompletableFuture<Integer> f = new CompletableFuture<>();
            platform(() -> {
                awaitBlockedAndIdle(self);
                f.complete(42);
            });
            assertEquals(42, f.get());
        });
        assertNull(t, () -> "unexpected " + t);
    }

    @Test
    void lockHeldByAPlatformThreadIsNotADeadlock() {
        Throwable t = goMain(() -> {
            Thread self = Thread.currentThread();
            ReentrantLock lock = new ReentrantLock();
            CountDownLatch held = new CountDownLatch(1);
            platform(() -> {
                lock.lock();
                try {
                    held.countDown();
                    awaitBlockedAndIdle(self);
                } finally {
                    lock.unlock();
                }
            });
            held.await();
            lock.lock();
            try {
                assertTrue(lock.isHeldByCurrentThread());
            } finally {
                lock.unlock();
            }
        });
        assertNull(t, () -> "unexpected " + t);
    }

    /**
     * The actor snippet's shape without actors: main parks in G.park, and a goroutine of another
     * runtime, still running when the default runtime goes idle, readies it.
     */
    @Test
    void parkedMainReadiedByARunningGoroutineOfAnotherRuntimeIsNotADeadlock() {
        try (GoRuntime other = GoRuntime.builder().maxProcs(1).name("other-running").build()) {
            Throwable t = goMain(() -> {
                G main = G.current();
                other.go(() -> {
                    TestSupport.awaitCondition(() -> main.thread().getState() == Thread.State.WAITING
                            && allIdle(GoRuntime.defaultRuntime().stats()), () -> "main never parked");
                    main.ready();
                });
                main.park("chan receive");
            });
            assertNull(t, () -> "unexpected " + t);
        }
    }

    /**
     * The same with the other runtime's goroutine blocked in a JDK wait (a latch a platform
     * thread opens) while the default runtime goes idle: no M runs anywhere, yet that goroutine
     * is not asleep.
     */
    @Test
    void parkedMainReadiedByAGoroutineOfAnotherRuntimeInAJdkWaitIsNotADeadlock() {
        try (GoRuntime other = GoRuntime.builder().maxProcs(1).name("other-jdk-wait").build()) {
            Throwable t = goMain(() -> {
                G main = G.current();
                CountDownLatch open = new CountDownLatch(1);
                CountDownLatch waiting = new CountDownLatch(1);
                AtomicReference<Thread> relay = new AtomicReference<>();
                other.go(() -> {
                    relay.set(Thread.currentThread());
                    waiting.countDown();
                    try {
                        open.await();
                    } catch (InterruptedException e) {
                        throw new AssertionError(e);
                    }
                    main.ready();
                });
                platform(() -> {
                    TestSupport.await(waiting, () -> "relay never started");
                    TestSupport.awaitCondition(() -> relay.get().getState() == Thread.State.WAITING,
                            () -> "relay never blocked");
                    TestSupport.awaitCondition(() -> allIdle(other.stats()), () -> "other never idle: " + other.stats());
                    awaitBlockedAndIdle(main.thread());
                    open.countDown();
                });
                main.park("chan receive");
            });
            assertNull(t, () -> "unexpected " + t);
        }
    }

    /** The process-wide rule still finds a true deadlock while another runtime idles with asleep goroutines. */
    @Test
    void trueDeadlockIsReportedWhileAnotherRuntimeIdlesAsleep() throws Exception {
        try (GoRuntime other = GoRuntime.builder().maxProcs(1).name("other-asleep").build();
             GoRuntime rt = GoRuntime.builder().maxProcs(2).name("deadlock-with-other").build()) {
            CountDownLatch parked = new CountDownLatch(1);
            other.go(() -> {
                G g = G.current();
                parked.countDown();
                g.park("select");
            });
            TestSupport.await(parked, () -> "other's goroutine never started");
            Throwable t = TestSupport.runMain(rt, () -> G.current().park("chan receive"));
            DeadlockError e = assertInstanceOf(DeadlockError.class, t);
            assertTrue(e.dump().contains("goroutine 1 [chan receive]:"), e.dump());
        }
    }

    /**
     * The last M of the process to go idle belongs to another runtime (its goroutine runs until
     * main's runtime is idle, then parks for good): that M's check reports main's deadlock.
     */
    @Test
    void deadlockIsReportedByTheLastRunningMOfAnotherRuntime() throws Exception {
        try (GoRuntime other = GoRuntime.builder().maxProcs(1).name("other-last").build();
             GoRuntime rt = GoRuntime.builder().maxProcs(2).name("deadlock-last-m-other").build()) {
            Throwable t = TestSupport.runMain(rt, () -> {
                G main = G.current();
                other.go(() -> {
                    TestSupport.awaitCondition(() -> main.thread().getState() == Thread.State.WAITING
                            && allIdle(rt.stats()), () -> "main never parked");
                    G.current().park("select");
                });
                main.park("chan receive");
            });
            DeadlockError e = assertInstanceOf(DeadlockError.class, t);
            assertTrue(e.dump().contains("goroutine 1 [chan receive]:"), e.dump());
        }
    }
}
