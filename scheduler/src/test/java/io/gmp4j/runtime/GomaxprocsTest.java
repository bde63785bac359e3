package io.gmp4j.runtime;

import io.gmp4j.SchedStats;
import io.gmp4j.Go;
import io.gmp4j.GoRuntime;
import io.gmp4j.NoUncaughtExceptions;
import io.gmp4j.Syscall;
import io.gmp4j.TestSupport;
import io.gmp4j.runtime.spi.Landing;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Go's {@code runtime.GOMAXPROCS(n)} at run time: the world stops, Ps are added or removed
 * (their queues and timers moved), and nothing queued is lost or run twice.
 */
@ExtendWith(NoUncaughtExceptions.class)
class GomaxprocsTest {
    /** A token passed around the ring; only the goroutine holding it touches {@code hops}. */
    private static final class Token {
        final int id;
        long hops;

        Token(int id) {
            this.id = id;
        }
    }

    private static void checkProcs(GoRuntime rt, int n) {
        assertEquals(n, rt.gomaxprocs());
        SchedStats s = rt.stats();
        assertEquals(n, s.gomaxprocs(), s::toString);
        assertEquals(n, s.localQueues().length, s::toString);
        assertTrue(s.schedtrace().contains("gomaxprocs=" + n + " "), s::schedtrace);
        assertTrue(s.idleProcs() <= n, s::toString);
    }

    /**
     * 10,000 goroutines pass tokens around a ring (park/ready, each woken goroutine landing in
     * its waker's runnext) while GOMAXPROCS cycles through 1, 3, 2, 4 at random moments, half
     * the changes made from a goroutine. After the last change the tokens are collected: each
     * exactly once, and their hops add up to the receives counted, so nothing was lost (a lost
     * wake-up strands its token and the collection times out) and nothing ran twice.
     */
    @ParameterizedTest
    @ValueSource(ints = {4, 1})
    void tokenRingLosesAndDuplicatesNothingAcrossResizes(int startProcs) throws InterruptedException {
        int goroutines = 10_000;
        int tokens = 2_000;
        int resizes = TestSupport.stress(120, 24);
        int[] cycle = startProcs == 4 ? new int[] {1, 3, 2, 4} : new int[] {4, 3, 1, 2};
        try (GoRuntime rt = GoRuntime.builder().maxProcs(startProcs).name("resize-ring-" + startProcs).build()) {
            Scheduler sched = Scheduler.of(rt);
            G[] ring = new G[goroutines];
            @SuppressWarnings("unchecked")
            ConcurrentLinkedQueue<Token>[] inbox = new ConcurrentLinkedQueue[goroutines];
            AtomicBoolean collect = new AtomicBoolean();
            AtomicReferenceArray<Token> collected = new AtomicReferenceArray<>(tokens);
            AtomicInteger duplicates = new AtomicInteger();
            AtomicLong receives = new AtomicLong();
            CountDownLatch allCollected = new CountDownLatch(tokens);
            CountDownLatch exited = new CountDownLatch(goroutines);
            Token poison = new Token(-1);
            for (int i = 0; i < goroutines; i++) {
                inbox[i] = new ConcurrentLinkedQueue<>();
            }
            for (int i = 0; i < goroutines; i++) {
                int me = i;
                ring[i] = sched.go(() -> {
                    G self = G.current();
                    int next = (me + 1) % goroutines;
                    while (true) {
                        Token t = inbox[me].poll();
                        if (t == null) {
                            self.park("token");
                            continue;
                        }
                        if (t == poison) {
                            exited.countDown();
                            return;
                        }
                        t.hops++;
                        receives.incrementAndGet();
                        if (collect.get()) {
                            if (collected.compareAndSet(t.id, null, t)) {
                                allCollected.countDown();
                            } else {
                                duplicates.incrementAndGet();
                            }
                            continue;
                        }
                        inbox[next].add(t);
                        ring[next].ready();
                    }
                });
            }
            for (int k = 0; k < tokens; k++) {
                int at = (int) ((long) k * goroutines / tokens);
                inbox[at].add(new Token(k));
                ring[at].ready();
            }
            TestSupport.awaitCondition(() -> receives.get() > 0, () -> "no token moved: " + rt.stats());
            SplittableRandom rnd = new SplittableRandom(startProcs);
            int expected = startProcs;
            long receivesAtFirst = -1;
            for (int r = 0; r < resizes; r++) {
                LockSupport.parkNanos(rnd.nextLong(TimeUnit.MILLISECONDS.toNanos(3))); // a random moment
                int n = cycle[r % cycle.length];
                int prev;
                if (r % 2 == 0) {
                    prev = rt.gomaxprocs(n);
                } else {
                    AtomicInteger got = new AtomicInteger();
                    TestSupport.runInGoroutine(rt, () -> got.set(Go.gomaxprocs(n)));
                    prev = got.get();
                }
                assertEquals(expected, prev, "GOMAXPROCS(n) returns the previous value");
                checkProcs(rt, n);
                expected = n;
                if (r == 0) {
                    receivesAtFirst = receives.get();
                }
            }
            long receivesAtLast = receives.get();
            collect.set(true);
            TestSupport.await(allCollected, () -> (tokens - allCollected.getCount()) + " of " + tokens
                    + " tokens collected; " + rt.stats() + "\n");
            for (int i = 0; i < goroutines; i++) {
                inbox[i].add(poison);
                ring[i].ready();
            }
            TestSupport.await(exited, () -> exited.getCount() + " ring goroutines still running; " + rt.stats());
            long hops = 0;
            for (int k = 0; k < tokens; k++) {
                hops += collected.get(k).hops;
            }
            SchedStats s = rt.stats();
            System.out.println("token ring from " + startProcs + " Ps, " + resizes + " resizes, "
                    + receives.get() + " receives: " + s);
            assertEquals(0, duplicates.get(), "a token collected twice");
            assertEquals(receives.get(), hops, "every receive is one hop of one token");
            assertTrue(receivesAtFirst > 0 && receivesAtLast > receivesAtFirst,
                    () -> "the resizes happened while tokens moved");
            assertEquals(0, sched.taskFailures.sum(), s::toString);
        }
    }

    /**
     * Timers armed from a platform thread go round-robin over the Ps, so four of them sit on
     * P0..P3. Shrinking to one P moves the three on removed Ps to P0; every sleeper wakes, and
     * not early.
     */
    @Test
    void timersOfRemovedPsMoveAndFire() {
        try (GoRuntime rt = GoRuntime.builder().maxProcs(4).name("resize-timers").build()) {
            Scheduler sched = Scheduler.of(rt);
            int sleepers = 4;
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(300);
            RuntimeTimer[] timers = new RuntimeTimer[sleepers];
            AtomicLongArrayView wokeAt = new AtomicLongArrayView(sleepers);
            CountDownLatch parked = new CountDownLatch(sleepers);
            CountDownLatch woke = new CountDownLatch(sleepers);
            AtomicReferenceArray<G> gs = new AtomicReferenceArray<>(sleepers);
            for (int i = 0; i < sleepers; i++) {
                int me = i;
                sched.go(() -> {
                    gs.set(me, G.current());
                    parked.countDown();
                    G.current().park("sleep");
                    wokeAt.set(me, System.nanoTime());
                    woke.countDown();
                });
            }
            TestSupport.await(parked, rt::toString);
            for (int i = 0; i < sleepers; i++) {
                int me = i;
                timers[i] = sched.newTimer(() -> gs.get(me).ready());
                timers[i].reset(deadline); // from this platform thread: the next P round-robin
            }
            Set<Integer> ps = new HashSet<>();
            for (RuntimeTimer t : timers) {
                Timers h = t.heap;
                if (h != null) {
                    ps.add(h.p.id);
                }
            }
            assertEquals(Set.of(0, 1, 2, 3), ps, "one timer on each P before the shrink");
            assertEquals(4, rt.gomaxprocs(1));
            for (RuntimeTimer t : timers) {
                Timers h = t.heap;
                assertTrue(h == null || h.p.id == 0, () -> "a pending timer left on P" + h.p.id);
            }
            TestSupport.await(woke, () -> "a sleeper on a removed P never woke: " + rt.stats());
            for (int i = 0; i < sleepers; i++) {
                assertTrue(wokeAt.get(i) - deadline >= 0, "woke before its timer's deadline");
            }
            checkProcs(rt, 1);
            // and back: timers armed now land on the new Ps and fire too
            assertEquals(1, rt.gomaxprocs(3));
            CountDownLatch fired = new CountDownLatch(6);
            for (int i = 0; i < 6; i++) {
                sched.newTimer(fired::countDown).reset(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(5));
            }
            TestSupport.await(fired, () -> "timers after growing: " + rt.stats());
        }
    }

    /** A small holder so the sleepers' wake-up times are published to the test thread. */
    private static final class AtomicLongArrayView {
        private final java.util.concurrent.atomic.AtomicLongArray a;

        AtomicLongArrayView(int n) {
            a = new java.util.concurrent.atomic.AtomicLongArray(n);
        }

        void set(int i, long v) {
            a.set(i, v);
        }

        long get(int i) {
            return a.get(i);
        }
    }

    /**
     * A goroutine in a CPU loop without safe points delays the stop-the-world but does not
     * block it: its P is taken after the grace period and the loop finishes on its M. A
     * goroutine inside a syscall loses its P to the stop as well and resumes afterwards.
     */
    @Test
    void aGoroutineWithoutSafePointsOrInASyscallDoesNotBlockTheResize() {
        try (GoRuntime rt = GoRuntime.builder().maxProcs(2).name("resize-stuck").build()) {
            CountDownLatch looping = new CountDownLatch(2);
            CountDownLatch finished = new CountDownLatch(2);
            AtomicLong sink = new AtomicLong();
            rt.go(() -> {
                looping.countDown();
                sink.addAndGet(TestSupport.burn(TimeUnit.MILLISECONDS.toNanos(300)));
                finished.countDown();
            });
            rt.go(() -> {
                looping.countDown();
                try {
                    Syscall.blocking(() -> {
                        Thread.sleep(200); // a platform-blocking call in a syscall
                        return null;
                    });
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
                finished.countDown();
            });
            TestSupport.await(looping, rt::toString);
            assertEquals(2, rt.gomaxprocs(1));
            checkProcs(rt, 1);
            assertEquals(1, rt.gomaxprocs(3));
            checkProcs(rt, 3);
            TestSupport.await(finished, () -> "the stuck goroutines never finished: " + rt.stats());
            // still schedules normally
            CountDownLatch after = new CountDownLatch(100);
            for (int i = 0; i < 100; i++) {
                rt.go(after::countDown);
            }
            TestSupport.await(after, rt::toString);
        }
    }

    /** Queries, bad arguments, a closed runtime, and a task running directly on an M. */
    @Test
    void errorsAreClear() {
        GoRuntime rt = GoRuntime.builder().maxProcs(2).maxThreads(8).name("resize-errors").build();
        try {
            assertEquals(2, rt.gomaxprocs(0), "n < 1 only queries");
            assertEquals(2, rt.gomaxprocs(-3));
            assertEquals(2, rt.gomaxprocs(2), "the same value: no change");
            IllegalArgumentException big = assertThrows(IllegalArgumentException.class, () -> rt.gomaxprocs(9));
            assertTrue(big.getMessage().contains("maxThreads=8"), big.getMessage());
            AtomicReference<Throwable> fromCallback = new AtomicReference<>();
            CountDownLatch ran = new CountDownLatch(1);
            Scheduler.of(rt).newTimer(() -> {
                try {
                    rt.gomaxprocs(1);
                } catch (Throwable t) {
                    fromCallback.set(t);
                }
                ran.countDown();
            }).reset(System.nanoTime());
            TestSupport.await(ran, rt::toString);
            assertInstanceOf(IllegalStateException.class, fromCallback.get());
            assertTrue(fromCallback.get().getMessage().contains("timer callback"), fromCallback.get().getMessage());
            assertEquals(2, rt.gomaxprocs());
        } finally {
            rt.close();
        }
        IllegalStateException closed = assertThrows(IllegalStateException.class, () -> rt.gomaxprocs(3));
        assertTrue(closed.getMessage().contains("'resize-errors' is closed"), closed.getMessage());
    }

    /**
     * Growing from one P converts P0's queue (built without thieves) into a stealable one: the
     * goroutines queued there at the change all run once, and the new Ps steal from P0.
     */
    @Test
    void growingFromOnePLetsTheNewPsSteal() {
        try (GoRuntime rt = GoRuntime.builder().maxProcs(1).name("resize-grow").build()) {
            int n = 200; // < 256: all fit in P0's ring
            AtomicIntegerArray runs = new AtomicIntegerArray(n);
            CountDownLatch spawned = new CountDownLatch(1);
            CountDownLatch done = new CountDownLatch(n);
            rt.go(() -> {
                for (int i = 0; i < n; i++) {
                    int id = i;
                    Go.go(() -> {
                        TestSupport.burn(300_000);
                        runs.incrementAndGet(id);
                        done.countDown();
                    });
                }
                spawned.countDown(); // the n goroutines wait in P0's runnext and ring
            });
            TestSupport.await(spawned, rt::toString);
            assertEquals(1, rt.gomaxprocs(4));
            TestSupport.await(done, rt::toString);
            for (int i = 0; i < n; i++) {
                assertEquals(1, runs.get(i), "goroutine " + i);
            }
            SchedStats s = rt.stats();
            System.out.println("grown from one P: " + s);
            long busyPs = java.util.Arrays.stream(s.tasksRun()).filter(t -> t > 0).count();
            assertTrue(busyPs >= 2, () -> "the new Ps ran tasks: " + s);
        }
    }

    /**
     * Plain tasks (not goroutines, so a task run twice shows: the JDK ignores a second run of a
     * virtual thread's continuation) hand over to the next step of their chain through runnext
     * ({@code execute(task, Landing.HANDOFF)}) while GOMAXPROCS grows from 1, shrinks and grows again: every step
     * of every chain runs exactly once. Growing from one P must first make P0's queue
     * stealable; a runnext taken by a thief and by the owner at once would fork a chain.
     */
    @Test
    void plainTaskChainsRunEachStepOnceAcrossResizes() {
        int chains = 64;
        int steps = TestSupport.stress(20_000, 4_000);
        try (GoRuntime rt = GoRuntime.builder().maxProcs(1).name("resize-plain").build()) {
            Scheduler sched = Scheduler.of(rt);
            AtomicIntegerArray ran = new AtomicIntegerArray(chains);
            AtomicIntegerArray ended = new AtomicIntegerArray(chains);
            AtomicInteger chainsEnded = new AtomicInteger();
            record Step(Scheduler sched, AtomicIntegerArray ran, AtomicIntegerArray ended, AtomicInteger chainsEnded,
                        int chain, int step, int steps) implements Runnable {
                @Override
                public void run() {
                    ran.incrementAndGet(chain);
                    if (step < steps) {
                        sched.execute(new Step(sched, ran, ended, chainsEnded, chain, step + 1, steps), Landing.HANDOFF);
                    } else {
                        ended.incrementAndGet(chain);
                        chainsEnded.incrementAndGet();
                    }
                }
            }
            for (int c = 0; c < chains; c++) {
                sched.execute(new Step(sched, ran, ended, chainsEnded, c, 1, steps));
            }
            int[] cycle = {4, 1, 3, 2};
            SplittableRandom rnd = new SplittableRandom(3);
            int changes = 0;
            while (chainsEnded.get() < chains && changes < 200) {
                LockSupport.parkNanos(rnd.nextLong(1_000_000));
                rt.gomaxprocs(cycle[changes++ % cycle.length]);
            }
            TestSupport.awaitCondition(() -> chainsEnded.get() >= chains, () -> chainsEnded + " chains ended; " + rt.stats());
            // A forked chain would still be running: wait until every P is idle and nothing is queued.
            TestSupport.awaitCondition(() -> {
                SchedStats s = rt.stats();
                return s.idleProcs() == s.gomaxprocs() && s.globalQueue() == 0;
            }, rt::toString);
            for (int c = 0; c < chains; c++) {
                assertEquals(steps, ran.get(c), "steps run in chain " + c);
                assertEquals(1, ended.get(c), "ends of chain " + c);
            }
            assertTrue(changes >= 2, "GOMAXPROCS changed while the chains ran: " + changes);
            System.out.println("plain chains: " + changes + " changes, " + rt.stats());
        }
    }
}
