package io.gmp4j;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicIntegerArray;

import static org.junit.jupiter.api.Assertions.*;

/** A full local run queue moves half of itself to the global queue (Go's runqputslow). */
@ExtendWith(NoUncaughtExceptions.class)
class OverflowTest {
    @Test
    void spawningTenThousandWithoutYieldingOverflowsToTheGlobalQueue() {
        int n = 10_000;
        try (GoRuntime rt = GoRuntime.builder().maxProcs(1).name("overflow").build()) {
            AtomicIntegerArray runs = new AtomicIntegerArray(n);
            CountDownLatch done = new CountDownLatch(n);
            rt.go(() -> {
                for (int i = 0; i < n; i++) {
                    int k = i;
                    Go.go(() -> {
                        runs.incrementAndGet(k);
                        done.countDown();
                    });
                }
            });
            TestSupport.await(done, () -> done.getCount() + " left; " + rt.stats());
            TestSupport.awaitCondition(() -> rt.numGoroutine() == 0, () -> "goroutines left: " + rt.stats());
            for (int i = 0; i < n; i++) {
                assertEquals(1, runs.get(i), "goroutine " + i);
            }
            SchedStats s = rt.stats();
            // The spawner never parks: past 257 (ring + runnext) each 129 spawns overflow once,
            // about 75 times, unless sysmon preempts the spawner (then its children run first).
            assertTrue(s.overflows() > 0, () -> "no overflow: " + s);
        }
    }
}
