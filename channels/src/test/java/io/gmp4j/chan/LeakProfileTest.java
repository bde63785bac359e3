package io.gmp4j.chan;

import io.gmp4j.runtime.Scheduler;
import io.gmp4j.GoRuntime;
import io.gmp4j.LeakedGoroutine;
import io.gmp4j.Metrics;
import io.gmp4j.NoUncaughtExceptions;
import io.gmp4j.TestSupport;
import io.gmp4j.sync.Mutex;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.lang.ref.Reference;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.*;

/**
 * {@link GoRuntime#leakedGoroutines()}: goroutines blocked on primitives nothing can reach any
 * more, found through the JVM's reachability. The test never holds a leaked goroutine's G or
 * thread (that would keep it reachable); it waits for the parks through the waiting count.
 * One P: no thief keeps a copy of a run-queue slot (see LeakProfile).
 */
@ExtendWith(NoUncaughtExceptions.class)
class LeakProfileTest {
    /** A channel a static field holds: whoever blocks on it may still be woken. */
    static volatile Chan<Integer> held;

    private static GoRuntime leakRuntime(String name) {
        return GoRuntime.builder().maxProcs(1).leakProfile(true).name(name).build();
    }

    private static void awaitWaiting(GoRuntime rt, long n) {
        TestSupport.awaitCondition(() -> rt.metrics(Metrics.GOROUTINES_WAITING).value(Metrics.GOROUTINES_WAITING) == n,
                () -> rt.metrics() + "\n" + rt.dump());
    }

    @Test
    void aGoroutineBlockedOnAChannelNobodyElseHoldsIsReportedOnceAndTheRuntimeClosesCleanly() {
        GoRuntime rt = leakRuntime("leak-one");
        try {
            reportedOnceThenClosed(rt);
        } finally {
            rt.close();
        }
    }

    private static void reportedOnceThenClosed(GoRuntime rt) {
        AtomicLong id = new AtomicLong();
        rt.go(() -> {
            id.set(io.gmp4j.runtime.G.current().id());
            new Chan<Integer>().recv(); // the channel lives only in this goroutine's frames
        });
        awaitWaiting(rt, 1);

        List<LeakedGoroutine> leaked = rt.leakedGoroutines();
        assertEquals(1, leaked.size(), leaked::toString);
        LeakedGoroutine l = leaked.getFirst();
        assertEquals(id.get(), l.id());
        assertEquals("chan receive", l.waitReason());
        assertEquals(LeakProfileTest.class.getName(), l.createdBy());
        if (!l.stack().isEmpty()) { // empty when an ordinary collection freed it before the report
            assertTrue(l.stack().stream().anyMatch(e -> e.getClassName().equals(Chan.class.getName())
                    && e.getMethodName().equals("recv")), l::toString);
        }
        assertTrue(l.toString().startsWith("goroutine " + id.get() + " [chan receive, leaked]:"), l::toString);

        // Still leaked, still counted, reported again, once.
        assertEquals(List.of(id.get()), rt.leakedGoroutines().stream().map(LeakedGoroutine::id).toList());
        assertEquals(1, rt.numGoroutine());
        assertEquals(1, rt.metrics(Metrics.GOROUTINES_WAITING).value(Metrics.GOROUTINES_WAITING));

        // After the report the runtime still serves and closes with every thread ended.
        CountDownLatch ran = new CountDownLatch(1);
        rt.go(ran::countDown);
        TestSupport.await(ran, rt::dump);
        assertTrue(Scheduler.of(rt).close(10_000), "every runtime thread ended");
        assertTrue(Scheduler.of(rt).threads().isEmpty(), () -> Scheduler.of(rt).threads().toString());
    }

    /** Started by a goroutine, it runs from its P's runnext: the P must not keep the task it ran. */
    @Test
    void aGoroutineStartedByAGoroutineAndLeakedIsReported() {
        try (GoRuntime rt = leakRuntime("leak-child")) {
            AtomicLong id = new AtomicLong();
            CountDownLatch spawned = new CountDownLatch(1);
            rt.go(() -> {
                io.gmp4j.Go.go(() -> {
                    id.set(io.gmp4j.runtime.G.current().id());
                    new Chan<Integer>().send(1);
                });
                spawned.countDown();
            });
            TestSupport.await(spawned, rt::dump);
            awaitWaiting(rt, 1);
            TestSupport.awaitCondition(() -> rt.numGoroutine() == 1, rt::dump);
            List<LeakedGoroutine> leaked = rt.leakedGoroutines();
            assertEquals(List.of(id.get()), leaked.stream().map(LeakedGoroutine::id).toList(), leaked::toString);
            assertEquals("chan send", leaked.getFirst().waitReason());
        }
    }

    @Test
    void aChannelStillHeldByAStaticFieldOrAReachableGoroutineLeaksNothing() throws InterruptedException {
        try (GoRuntime rt = leakRuntime("leak-held")) {
            held = new Chan<>();
            CountDownLatch done = new CountDownLatch(3);
            rt.go(() -> {
                held.recv();
                done.countDown();
            });
            // A receives on ch; B holds ch and waits on gate, which this test holds: B may still
            // send on ch, so neither is leaked.
            Chan<Integer> gate = new Chan<>();
            startPair(rt, gate, done);
            awaitWaiting(rt, 3);

            assertEquals(List.of(), rt.leakedGoroutines());

            gate.send(1); // B sends on ch, A receives: both end
            held.send(2);
            TestSupport.await(done, rt::dump);
            TestSupport.awaitCondition(() -> rt.numGoroutine() == 0, rt::dump);
            assertEquals(List.of(), rt.leakedGoroutines());
            Reference.reachabilityFence(gate);
        } finally {
            held = null;
        }
    }

    private static void startPair(GoRuntime rt, Chan<Integer> gate, CountDownLatch done) {
        Chan<Integer> ch = new Chan<>();
        rt.go(() -> {
            ch.recv();
            done.countDown();
        });
        rt.go(() -> {
            gate.recv();
            ch.send(1);
            done.countDown();
        });
    }

    @Test
    void twoGoroutinesWaitingOnEachOthersChannelsLeakTogether() {
        try (GoRuntime rt = leakRuntime("leak-cycle")) {
            AtomicLong a = new AtomicLong();
            AtomicLong b = new AtomicLong();
            startCycle(rt, a, b);
            awaitWaiting(rt, 2);
            List<LeakedGoroutine> leaked = rt.leakedGoroutines();
            assertEquals(List.of(Math.min(a.get(), b.get()), Math.max(a.get(), b.get())),
                    leaked.stream().map(LeakedGoroutine::id).toList(), leaked::toString);
            assertTrue(leaked.stream().allMatch(l -> "chan receive".equals(l.waitReason())), leaked::toString);
        }
    }

    // Each receives on its own channel first and would then send on the other's: a partial
    // deadlock that only the two of them can reach.
    private static void startCycle(GoRuntime rt, AtomicLong a, AtomicLong b) {
        Chan<Integer> toA = new Chan<>();
        Chan<Integer> toB = new Chan<>();
        rt.go(() -> {
            a.set(io.gmp4j.runtime.G.current().id());
            toA.recv();
            toB.send(1);
        });
        rt.go(() -> {
            b.set(io.gmp4j.runtime.G.current().id());
            toB.recv();
            toA.send(1);
        });
    }

    @Test
    void selectsAndMutexesNobodyCanReachLeakWithTheirWaitReasons() {
        try (GoRuntime rt = leakRuntime("leak-kinds")) {
            startSelectAndMutexWaiters(rt);
            awaitWaiting(rt, 2);
            List<String> reasons = rt.leakedGoroutines().stream().map(LeakedGoroutine::waitReason).sorted().toList();
            assertEquals(List.of("select", "sync.Mutex.Lock"), reasons);
        }
    }

    private static void startSelectAndMutexWaiters(GoRuntime rt) {
        rt.go(() -> {
            Chan<Integer> x = new Chan<>();
            Chan<Integer> y = new Chan<>();
            Select s = new Select();
            s.recv(x);
            s.recv(y);
            s.select();
        });
        Mutex mu = new Mutex();
        mu.lock(); // locked by this thread, which forgets it: the goroutine below waits for ever
        rt.go(mu::lock);
    }

    /**
     * A collected (leaked) goroutine is asleep for ever: when main then blocks too, Go's
     * checkdead still finds every goroutine asleep, and the dump lists the leaked one.
     */
    @Test
    void aLeakedGoroutineCountsAsAsleepForTheDeadlockReport() throws InterruptedException {
        try (GoRuntime rt = leakRuntime("leak-deadlock")) {
            AtomicLong id = new AtomicLong();
            Throwable thrown = TestSupport.runMain(rt, () -> {
                startLeaker(id);
                TestSupport.awaitCondition(() -> rt.metrics(Metrics.GOROUTINES_WAITING).value(Metrics.GOROUTINES_WAITING) == 1,
                        rt::dump);
                assertEquals(1, rt.leakedGoroutines().size()); // collected by now
                new Chan<Integer>().recv(); // main blocks for ever too
            });
            assertInstanceOf(io.gmp4j.DeadlockError.class, thrown, () -> String.valueOf(thrown));
            assertTrue(thrown.getMessage().contains("goroutine " + id.get() + " [chan receive, leaked]"), thrown::getMessage);
        }
    }

    private static void startLeaker(AtomicLong id) {
        io.gmp4j.Go.go(() -> {
            id.set(io.gmp4j.runtime.G.current().id());
            new Chan<Integer>().recv();
        });
    }

    @Test
    void aTimedWaitIsNotALeak() {
        try (GoRuntime rt = leakRuntime("leak-timed")) {
            CountDownLatch done = new CountDownLatch(1);
            rt.go(() -> {
                Select s = new Select();
                s.recv(new Chan<Integer>());
                s.timeout(java.time.Duration.ofMinutes(10));
                s.select();
                done.countDown();
            });
            awaitWaiting(rt, 1);
            assertEquals(List.of(), rt.leakedGoroutines(), "its timer holds it: it will wake");
        }
    }

    @Test
    void aRuntimeWithoutTheLeakProfileSaysHowToTurnItOn() {
        try (GoRuntime rt = GoRuntime.builder().maxProcs(1).name("leak-off").build()) {
            IllegalStateException e = assertThrows(IllegalStateException.class, rt::leakedGoroutines);
            assertTrue(e.getMessage().contains("leakProfile(true)"), e.getMessage());
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> GoRuntime.builder().goroutineRegistry(false).leakProfile(true).build());
        assertTrue(e.getMessage().contains("registry"), e.getMessage());
    }
}
