package io.gmp4j;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.*;

/**
 * No lost wake-ups: work submitted while the Ms are going idle is always picked up (Go's
 * wakep / "delicate dance" in findRunnable: a spinning M that gives up drops nmspinning and
 * then re-checks the global queue and every P).
 */
@ExtendWith(NoUncaughtExceptions.class)
class WakeupTest {
    /**
     * A platform thread submits one goroutine at a time and waits for it, so every submission
     * races the Ms that just went idle after the previous one (one is often still spinning).
     */
    @ParameterizedTest(name = "GOMAXPROCS={0}")
    @ValueSource(ints = {2, 4})
    void goroutineSubmittedWhileMsGoIdleAlwaysRuns(int procs) throws InterruptedException {
        int n = TestSupport.stress(50_000, 10_000);
        try (GoRuntime rt = GoRuntime.builder().maxProcs(procs).name("wakeup-" + procs).build()) {
            AtomicInteger ran = new AtomicInteger();
            for (int i = 0; i < n; i++) {
                CountDownLatch done = new CountDownLatch(1);
                rt.go(() -> {
                    ran.incrementAndGet();
                    done.countDown();
                });
                if (!done.await(TestSupport.TIMEOUT_S, TimeUnit.SECONDS)) {
                    int ii = i;
                    fail("goroutine " + ii + " never ran (lost wake-up): " + rt.stats());
                }
            }
            assertEquals(n, ran.get());
        }
    }

    /** The same from a goroutine waking a parked goroutine that another P must run. */
    @Test
    void goroutinesWokenFromAnotherGoroutineAlwaysRun() throws InterruptedException {
        int n = TestSupport.stress(20_000, 5_000);
        try (GoRuntime rt = GoRuntime.builder().maxProcs(2).name("wakeup-goroutines").build()) {
            CountDownLatch done = new CountDownLatch(1);
            AtomicInteger ran = new AtomicInteger();
            rt.go(() -> {
                try {
                    for (int i = 0; i < n; i++) {
                        CountDownLatch one = new CountDownLatch(1);
                        Go.go(() -> {
                            ran.incrementAndGet();
                            one.countDown();
                        });
                        if (!one.await(TestSupport.TIMEOUT_S, TimeUnit.SECONDS)) {
                            return;
                        }
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                } finally {
                    done.countDown();
                }
            });
            TestSupport.await(done, () -> rt.stats().toString());
            assertEquals(n, ran.get(), () -> "a goroutine never ran: " + rt.stats());
        }
    }
}
