package io.gmp4j.runtime;

import io.gmp4j.GoRuntime;
import io.gmp4j.NoUncaughtExceptions;
import io.gmp4j.TestSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.*;

/** Runtime timers (Go's runtime.timer): fire once, never early; stop and reset. */
@ExtendWith(NoUncaughtExceptions.class)
class RuntimeTimerTest {
    private static long ms(long n) {
        return TimeUnit.MILLISECONDS.toNanos(n);
    }

    /** Waits for a timer armed after {@code when}: by then any timer due earlier has fired. */
    private static void passTime(GoRuntime rt, long when) {
        CountDownLatch witness = new CountDownLatch(1);
        Scheduler.of(rt).newTimer(witness::countDown).reset(when);
        TestSupport.await(witness, () -> "witness timer never fired: " + rt.stats());
    }

    /**
     * {@code n} timers, not yet armed, with random deadlines within 200 ms of now (seeded):
     * each firing counts into {@link #fires}, counts {@link #all} down, and counts into
     * {@link #early} when it came before its deadline.
     */
    private static final class RandomTimers {
        final AtomicIntegerArray fires;
        final AtomicInteger early = new AtomicInteger();
        final CountDownLatch all;
        final long[] deadlines;
        final RuntimeTimer[] timers;
        /** The latest deadline. */
        final long last;

        RandomTimers(GoRuntime rt, int n, long seed) {
            fires = new AtomicIntegerArray(n);
            all = new CountDownLatch(n);
            deadlines = new long[n];
            timers = new RuntimeTimer[n];
            SplittableRandom rnd = new SplittableRandom(seed);
            long base = System.nanoTime();
            long latest = base;
            for (int i = 0; i < n; i++) {
                int k = i;
                deadlines[i] = base + rnd.nextLong(ms(200));
                latest = Math.max(latest, deadlines[i]);
                timers[i] = Scheduler.of(rt).newTimer(() -> {
                    if (System.nanoTime() - deadlines[k] < 0) {
                        early.incrementAndGet();
                    }
                    fires.incrementAndGet(k);
                    all.countDown();
                });
            }
            last = latest;
        }
    }

    @Test
    void firesOnceAtOrAfterItsDeadline() {
        try (GoRuntime rt = GoRuntime.builder().maxProcs(1).name("timer-once").build()) {
            AtomicInteger fires = new AtomicInteger();
            AtomicLong firedAt = new AtomicLong();
            CountDownLatch fired = new CountDownLatch(1);
            long deadline = System.nanoTime() + ms(20);
            RuntimeTimer t = Scheduler.of(rt).newTimer(() -> {
                firedAt.set(System.nanoTime());
                fires.incrementAndGet();
                fired.countDown();
            });
            assertFalse(t.pending());
            assertFalse(t.reset(deadline), "was not pending");
            assertTrue(t.pending());
            TestSupport.await(fired, () -> rt.stats().toString());
            assertTrue(firedAt.get() - deadline >= 0, () -> "fired " + (deadline - firedAt.get()) + " ns early");
            assertFalse(t.pending());
            assertFalse(t.stop(), "stop after firing reports it already fired");
            passTime(rt, System.nanoTime() + ms(20));
            assertEquals(1, fires.get());
        }
    }

    @Test
    void stopBeforeFiringPreventsIt() {
        try (GoRuntime rt = GoRuntime.builder().maxProcs(1).name("timer-stop").build()) {
            AtomicInteger fires = new AtomicInteger();
            RuntimeTimer t = Scheduler.of(rt).newTimer(fires::incrementAndGet);
            long deadline = System.nanoTime() + ms(30);
            t.reset(deadline);
            assertTrue(t.stop(), "stop prevented a pending firing");
            assertFalse(t.pending());
            assertFalse(t.stop(), "a second stop has nothing to prevent");
            passTime(rt, deadline + ms(30));
            assertEquals(0, fires.get(), "a stopped timer never fires");
        }
    }

    @Test
    void resetMovesTheDeadlineEarlierAndLater() {
        try (GoRuntime rt = GoRuntime.builder().maxProcs(2).name("timer-reset").build()) {
            AtomicLong firedAt = new AtomicLong();
            AtomicInteger fires = new AtomicInteger();
            CountDownLatch fired = new CountDownLatch(1);
            RuntimeTimer t = Scheduler.of(rt).newTimer(() -> {
                firedAt.set(System.nanoTime());
                fires.incrementAndGet();
                fired.countDown();
            });
            long far = System.nanoTime() + TimeUnit.SECONDS.toNanos(TestSupport.TIMEOUT_S / 2);
            t.reset(far);
            long soon = System.nanoTime() + ms(20);
            assertTrue(t.reset(soon), "reset of a pending timer");
            TestSupport.await(fired, () -> "not moved earlier: " + rt.stats());
            assertTrue(firedAt.get() - soon >= 0, "never before the new deadline");
            assertTrue(firedAt.get() - far < 0, "the old deadline is gone");
            assertEquals(1, fires.get());

            CountDownLatch fired2 = new CountDownLatch(1);
            AtomicLong firedAt2 = new AtomicLong();
            RuntimeTimer u = Scheduler.of(rt).newTimer(() -> {
                firedAt2.set(System.nanoTime());
                fired2.countDown();
            });
            u.reset(System.nanoTime() + ms(10));
            long later = System.nanoTime() + ms(150);
            assertTrue(u.reset(later));
            TestSupport.await(fired2, () -> rt.stats().toString());
            assertTrue(firedAt2.get() - later >= 0,
                    () -> "fired " + (later - firedAt2.get()) / 1000 + " us before the moved deadline");
        }
    }

    @Test
    void callbackCanRearmItsOwnTimer() {
        try (GoRuntime rt = GoRuntime.builder().maxProcs(2).name("timer-rearm").build()) {
            int ticks = 5;
            CountDownLatch done = new CountDownLatch(ticks);
            AtomicInteger early = new AtomicInteger();
            RuntimeTimer[] self = new RuntimeTimer[1];
            AtomicLong due = new AtomicLong();
            self[0] = Scheduler.of(rt).newTimer(() -> {
                if (System.nanoTime() - due.get() < 0) {
                    early.incrementAndGet();
                }
                done.countDown();
                if (done.getCount() > 0) {
                    due.set(System.nanoTime() + ms(2));
                    self[0].reset(due.get());
                }
            });
            due.set(System.nanoTime() + ms(2));
            self[0].reset(due.get());
            TestSupport.await(done, () -> rt.stats().toString());
            assertEquals(0, early.get());
        }
    }

    @Test
    void tenThousandRandomTimersEachFireExactlyOnce() {
        int n = 10_000;
        try (GoRuntime rt = GoRuntime.builder().maxProcs(2).name("timer-many").build()) {
            RandomTimers t = new RandomTimers(rt, n, 7);
            armHalfFromAGoroutineHalfFromAPlatformThread(rt, t.timers, t.deadlines, "timer-many");
            TestSupport.await(t.all, () -> t.all.getCount() + " timers did not fire: " + rt.stats());
            passTime(rt, t.last + ms(20));
            assertEquals(0, t.early.get(), "timers fired before their deadline");
            for (int i = 0; i < n; i++) {
                assertEquals(1, t.fires.get(i), "timer " + i);
                assertFalse(t.timers[i].pending());
            }
        }
    }

    /**
     * Goroutines on every P and a platform thread arm and stop timers while the Ms run due timers
     * from the same heaps: the heap locks are contended by goroutines, Ms and other threads. Every arm is consumed exactly once:
     * by its firing, by a stop() that returns true, or by a reset() that returns true.
     */
    @Test
    void goroutinesArmAndStopTimersWhileTheyFire() {
        // One goroutine leaves an M idle: it spins, steals and runs other Ps' timers, so every
        // heap lock is wanted by a goroutine, an M in the scheduler and platform threads at once.
        int goroutines = 1;
        int platformThreads = 2;
        int perGoroutine = TestSupport.stress(100_000, 20_000);
        try (GoRuntime rt = GoRuntime.builder().maxProcs(2).name("timer-contended").build()) {
            AtomicLong fires = new AtomicLong();
            AtomicLong arms = new AtomicLong();
            AtomicLong consumed = new AtomicLong(); // by stop() == true or reset() == true
            CountDownLatch done = new CountDownLatch(goroutines + platformThreads);
            java.util.List<RuntimeTimer> all = java.util.Collections.synchronizedList(new java.util.ArrayList<>());
            for (int g = 0; g < goroutines + platformThreads; g++) {
                int seed = g;
                Runnable armer = () -> {
                    SplittableRandom rnd = new SplittableRandom(seed);
                    RuntimeTimer[] mine = new RuntimeTimer[64];
                    for (int i = 0; i < mine.length; i++) {
                        mine[i] = Scheduler.of(rt).newTimer(fires::incrementAndGet);
                        all.add(mine[i]);
                    }
                    for (int i = 0; i < perGoroutine; i++) {
                        int k = rnd.nextInt(mine.length);
                        if (rnd.nextInt(4) == 0) {
                            if (mine[k].stop()) {
                                consumed.incrementAndGet();
                            }
                        } else {
                            arms.incrementAndGet();
                            if (mine[k].reset(System.nanoTime() + rnd.nextLong(ms(2)))) {
                                consumed.incrementAndGet(); // the pending arm it replaced
                            }
                        }
                    }
                    done.countDown();
                };
                if (g < goroutines) {
                    rt.go(armer);
                } else {
                    // ... and platform threads do the same meanwhile (not this one: if the
                    // runtime deadlocks it would block forever, past the latch's safety net)
                    Thread t = new Thread(armer, "timer-contended-platform-armer-" + g);
                    t.setDaemon(true);
                    t.start();
                }
            }
            TestSupport.await(done, () -> done.getCount() + " armers (goroutines or the platform thread) stuck: " + rt.stats() + "\n" + rt.dump());
            TestSupport.awaitCondition(() -> fires.get() + consumed.get() >= arms.get(),
                    () -> "arms " + arms + " fired " + fires + " stopped " + consumed + ": " + rt.stats());
            passTime(rt, System.nanoTime() + ms(20)); // room for a duplicate firing to show
            for (RuntimeTimer t : all) {
                assertFalse(t.pending());
            }
            assertEquals(arms.get(), fires.get() + consumed.get(), "every arm fires or is stopped, once");
        }
    }

    /**
     * Round after round, a goroutine and a platform thread arm thousands of timers while idle
     * Ms wake to run (and steal) the due ones: each timer heap's lock is wanted at once by a
     * goroutine (which unmounts while it waits), by Ms in the scheduler loop and by the platform
     * thread. Every timer must fire exactly once and the arming goroutine must finish.
     */
    @Test
    void timersArmedFromAGoroutineAndAPlatformThreadWhileIdleMsRunThem() {
        int rounds = TestSupport.stress(20, 5);
        int n = 10_000;
        for (int round = 0; round < rounds; round++) {
            // A fresh runtime each round: its Ms start while the timers are being armed.
            try (GoRuntime rt = GoRuntime.builder().maxProcs(2).name("timer-rounds-" + round).build()) {
                RandomTimers t = new RandomTimers(rt, n, round);
                armHalfFromAGoroutineHalfFromAPlatformThread(rt, t.timers, t.deadlines, "timer-rounds-" + round);
                int r = round;
                TestSupport.await(t.all, () -> "round " + r + ": " + t.all.getCount() + " timers did not fire: " + rt.stats());
                passTime(rt, t.last + ms(5));
                for (int i = 0; i < n; i++) {
                    assertEquals(1, t.fires.get(i), "round " + round + " timer " + i);
                }
            }
        }
    }

    /**
     * Arms the even timers from a goroutine (into the heap of the P it runs on) and the odd ones
     * from a platform thread (spread over the Ps) at the same time, and waits for both. Not from
     * the test thread: if the runtime deadlocks, it would block past the safety net.
     */
    private static void armHalfFromAGoroutineHalfFromAPlatformThread(GoRuntime rt, RuntimeTimer[] timers,
                                                                     long[] deadlines, String name) {
        CountDownLatch armed = new CountDownLatch(2);
        rt.go(() -> {
            for (int i = 0; i < timers.length; i += 2) {
                timers[i].reset(deadlines[i]);
            }
            armed.countDown();
        });
        Thread platform = new Thread(() -> {
            for (int i = 1; i < timers.length; i += 2) {
                timers[i].reset(deadlines[i]);
            }
            armed.countDown();
        }, name + "-platform-armer");
        platform.setDaemon(true);
        platform.start();
        TestSupport.await(armed, () -> name + ": arming did not finish: " + rt.stats() + "\n" + rt.dump());
    }
}
