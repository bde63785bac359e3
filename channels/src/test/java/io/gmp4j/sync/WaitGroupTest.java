package io.gmp4j.sync;

import io.gmp4j.GoRuntime;
import io.gmp4j.NoUncaughtExceptions;
import io.gmp4j.TestSupport;
import io.gmp4j.chan.Chan;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.*;

/** WaitGroup: await returns only after every done, on every kind of thread; Go's errors. */
@ExtendWith(NoUncaughtExceptions.class)
class WaitGroupTest {
    @ParameterizedTest(name = "maxProcs={0}")
    @ValueSource(ints = {1, 2})
    void awaitWaitsForEveryWorkerRoundAfterRound(int procs) {
        int rounds = TestSupport.stress(300, 40);
        int workers = 16;
        try (GoRuntime rt = Mixed.runtime(procs, "wg-rounds")) {
            WaitGroup wg = new WaitGroup();
            AtomicInteger finished = new AtomicInteger();
            List<Chan<Integer>> started = List.of(new Chan<>(1), new Chan<>(1), new Chan<>(1)); // one per waiter
            Chan<Integer> seen = new Chan<>(2);
            // Per round: the leader adds and spawns workers, then three threads await (the leader
            // and another goroutine and a platform thread). Go's reuse rule holds: the next add
            // happens only after every await of the round has returned.
            Mixed.run(rt, 2, 1, id -> {
                for (int r = 0; r < rounds; r++) {
                    if (id == 0) {
                        wg.add(workers);
                        started.get(1).send(r);
                        started.get(2).send(r);
                        for (int i = 0; i < workers; i++) {
                            rt.go(() -> {
                                finished.incrementAndGet();
                                wg.done();
                            });
                        }
                        wg.await();
                        assertEquals((r + 1) * workers, finished.get());
                        seen.recv();
                        seen.recv();
                    } else {
                        assertEquals(r, started.get(id).recv());
                        wg.await();
                        assertEquals((r + 1) * workers, finished.get(), "await returned before every done");
                        seen.send(r);
                    }
                }
            });
            assertEquals(rounds * workers, finished.get());
        }
    }

    @Test
    void goRunsTasksAndAwaitSeesThemAll() {
        try (GoRuntime rt = Mixed.runtime(2, "wg-go")) {
            int n = TestSupport.stress(10_000, 1_000);
            AtomicInteger ran = new AtomicInteger();
            TestSupport.runInGoroutine(rt, () -> {
                WaitGroup wg = new WaitGroup();
                for (int i = 0; i < n; i++) {
                    wg.go(ran::incrementAndGet);
                }
                wg.await();
                assertEquals(n, ran.get());
                assertEquals(0, wg.count());
            });
        }
    }

    @Test
    void negativeCounterIsGosPanic() {
        WaitGroup wg = new WaitGroup();
        IllegalStateException e = assertThrows(IllegalStateException.class, wg::done);
        assertEquals("sync: negative WaitGroup counter", e.getMessage());
        wg.add(2);
        assertThrows(IllegalStateException.class, () -> wg.add(-3));
        assertEquals(2, wg.count(), "a rejected add leaves the counter alone");
        wg.add(-2);
        wg.await(); // zero: returns at once
    }
}
