package io.gmp4j;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.LongAdder;

import static org.junit.jupiter.api.Assertions.*;

/** Spawning and joining many goroutines: every one runs exactly once. */
@ExtendWith(NoUncaughtExceptions.class)
class SpawnTest {
    @Test
    void millionGoroutinesSpawnedFromAGoroutineRunExactlyOnce() {
        int n = 1_000_000; // the issue asks for a million in every mode: it takes about a second
        try (GoRuntime rt = GoRuntime.builder().maxProcs(2).name("spawn-million").build()) {
            AtomicIntegerArray runs = new AtomicIntegerArray(n);
            LongAdder sum = new LongAdder();
            AtomicInteger count = new AtomicInteger();
            CountDownLatch done = new CountDownLatch(1);
            long t0 = System.nanoTime();
            rt.go(() -> {
                for (int i = 0; i < n; i++) {
                    int k = i;
                    Go.go(() -> {
                        runs.incrementAndGet(k);
                        sum.add(k);
                        if (count.incrementAndGet() == n) {
                            done.countDown();
                        }
                    });
                }
            });
            TestSupport.await(done, () -> count.get() + " of " + n + " ran; " + rt.stats());
            long ms = (System.nanoTime() - t0) / 1_000_000;
            // Every goroutine has returned once none is left; a duplicate run would show here.
            TestSupport.awaitCondition(() -> rt.numGoroutine() == 0, () -> "goroutines left: " + rt.stats());
            assertEquals(n, count.get());
            assertEquals((long) n * (n - 1) / 2, sum.sum());
            for (int i = 0; i < n; i++) {
                if (runs.get(i) != 1) {
                    fail("goroutine " + i + " ran " + runs.get(i) + " times");
                }
            }
            assertEquals(n + 1, rt.stats().goroutinesCreated());
            System.out.println("spawned and joined " + n + " goroutines in " + ms + " ms: " + rt.stats());
        }
    }

    @Test
    void goroutinesSubmittedFromAPlatformThreadRunExactlyOnce() {
        int n = 100_000;
        try (GoRuntime rt = GoRuntime.builder().maxProcs(2).name("spawn-platform").build()) {
            AtomicIntegerArray runs = new AtomicIntegerArray(n);
            CountDownLatch done = new CountDownLatch(n);
            for (int i = 0; i < n; i++) {
                int k = i;
                rt.go(() -> {
                    runs.incrementAndGet(k);
                    done.countDown();
                });
            }
            TestSupport.await(done, () -> done.getCount() + " left; " + rt.stats());
            TestSupport.awaitCondition(() -> rt.numGoroutine() == 0, () -> "goroutines left: " + rt.stats());
            for (int i = 0; i < n; i++) {
                if (runs.get(i) != 1) {
                    fail("goroutine " + i + " ran " + runs.get(i) + " times");
                }
            }
            assertEquals(n, rt.stats().goroutinesCreated());
        }
    }
}
