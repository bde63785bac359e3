package io.gmp4j;

import org.junit.jupiter.api.Test;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.*;

class SmokeTest {
    @Test
    void spawnAndJoin() throws Exception {
        try (GoRuntime rt = GoRuntime.builder().maxProcs(2).name("smoke").build()) {
            int n = 100_000;
            CountDownLatch done = new CountDownLatch(n);
            AtomicLong sum = new AtomicLong();
            long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                int k = i;
                rt.go(() -> { sum.addAndGet(k); done.countDown(); });
            }
            assertTrue(done.await(60, TimeUnit.SECONDS), () -> rt.stats().toString());
            System.out.println("spawn " + n + " in " + (System.nanoTime() - t0) / 1e6 + " ms " + rt.stats());
            assertEquals((long) n * (n - 1) / 2, sum.get());
        }
    }
}
