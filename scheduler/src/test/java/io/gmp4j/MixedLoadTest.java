package io.gmp4j;

import io.gmp4j.runtime.Scheduler;
import io.gmp4j.runtime.G;
import io.gmp4j.runtime.RuntimeTimer;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Everything at once, on more Ps than cores: goroutines that spawn, wake each other through
 * runnext, sleep on runtime timers, block in syscalls, yield, and burn CPU without a safe point
 * (so sysmon hands Ps off mid-run). Every unit of work must complete exactly once and the
 * runtime must end with no goroutine left.
 */
@ExtendWith(NoUncaughtExceptions.class)
class MixedLoadTest {
    @ParameterizedTest(name = "GOMAXPROCS={0}")
    @ValueSource(ints = {1, 2, 4})
    void everyUnitOfWorkCompletesExactlyOnce(int procs) {
        int workers = TestSupport.stress(5_000, 500);
        int steps = 25;
        try (GoRuntime rt = GoRuntime.builder().maxProcs(procs).name("mixed-" + procs).build()) {
            AtomicLongArray done = new AtomicLongArray(workers);
            AtomicLong stepsRun = new AtomicLong();
            CountDownLatch finished = new CountDownLatch(workers);
            for (int w = 0; w < workers; w++) {
                int id = w;
                rt.go(() -> {
                    SplittableRandom rnd = new SplittableRandom(id);
                    for (int s = 0; s < steps; s++) {
                        step(rt, rnd);
                        stepsRun.incrementAndGet();
                    }
                    done.incrementAndGet(id);
                    finished.countDown();
                });
            }
            TestSupport.await(finished, () -> finished.getCount() + " workers left: " + rt.stats());
            assertEquals((long) workers * steps, stepsRun.get());
            for (int w = 0; w < workers; w++) {
                assertEquals(1, done.get(w), "worker " + w);
            }
            TestSupport.awaitCondition(() -> rt.numGoroutine() == 0,
                    () -> rt.numGoroutine() + " goroutines left: " + rt.stats());
        }
    }

    private static void step(GoRuntime rt, SplittableRandom rnd) {
        switch (rnd.nextInt(6)) {
            case 0 -> { // spawn a child and wait for it: a wake-up through runnext
                G me = G.current();
                boolean[] ran = new boolean[1];
                Go.go(() -> {
                    ran[0] = true;
                    me.ready();
                });
                while (!ran[0]) {
                    me.park("child");
                }
            }
            case 1 -> { // sleep on a runtime timer
                G me = G.current();
                RuntimeTimer t = Scheduler.of(rt).newTimer(me::ready);
                t.reset(System.nanoTime() + rnd.nextLong(200_000));
                me.park("sleep");
            }
            case 2 -> { // a blocking call
                try {
                    Syscall.blocking(() -> Thread.sleep(0, 200_000)); // a delay standing in for I/O, not a wait for a result
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
            }
            case 3 -> Go.gosched();
            case 4 -> TestSupport.burn(rnd.nextLong(50_000)); // no safe point
            default -> Go.checkPreempt();
        }
    }
}
