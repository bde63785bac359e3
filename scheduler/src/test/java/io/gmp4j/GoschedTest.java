package io.gmp4j;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.*;

/** Go.gosched() yields the P: the caller goes to the global queue and another goroutine runs. */
@ExtendWith(NoUncaughtExceptions.class)
class GoschedTest {
    @Test
    void twoGoroutinesYieldingInALoopInterleave() {
        int k = 1_000;
        try (GoRuntime rt = GoRuntime.builder().maxProcs(1).name("gosched-interleave").build()) {
            StringBuffer record = new StringBuffer(); // one P: appends never race, but be safe
            CountDownLatch done = new CountDownLatch(2);
            rt.go(() -> {
                for (String name : new String[] {"A", "B"}) {
                    Go.go(() -> {
                        for (int i = 0; i < k; i++) {
                            record.append(name);
                            Go.gosched();
                        }
                        done.countDown();
                    });
                }
            });
            TestSupport.await(done, () -> rt.stats().toString());
            String r = record.toString();
            assertEquals(2 * k, r.length());
            int switches = 0;
            for (int i = 1; i < r.length(); i++) {
                if (r.charAt(i) != r.charAt(i - 1)) {
                    switches++;
                }
            }
            int s = switches;
            // Strict alternation gives 2k-1 switches; the 61st-tick fairness check may give the
            // global queue (the yielder itself) an extra turn now and then. Without a yield: 1.
            assertTrue(switches >= k, () -> "only " + s + " switches: " + r.substring(0, Math.min(200, r.length())));
        }
    }

    @Test
    void yielderQueuesBehindTheGlobalQueue() {
        int n = 100;
        // A 4-slot ring: spawning n children overflows most of them into the global queue.
        try (GoRuntime rt = GoRuntime.builder().maxProcs(1).runQueueSize(4).name("gosched-global").build()) {
            AtomicInteger ran = new AtomicInteger();
            AtomicInteger seenAfterYield = new AtomicInteger(-1);
            TestSupport.runInGoroutine(rt, () -> {
                for (int i = 0; i < n; i++) {
                    Go.go(ran::incrementAndGet);
                }
                Go.gosched();
                seenAfterYield.set(ran.get());
            });
            assertTrue(rt.stats().overflows() > 0, "the children went to the global queue");
            // At the tail of the global queue, the yielder resumes after every child ran; at the
            // tail of its local queue it would run before the overflowed ones.
            assertEquals(n, seenAfterYield.get());
        }
    }
}
