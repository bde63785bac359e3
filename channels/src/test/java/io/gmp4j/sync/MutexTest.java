package io.gmp4j.sync;

import io.gmp4j.GoRuntime;
import io.gmp4j.NoUncaughtExceptions;
import io.gmp4j.TestSupport;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.*;

/** Mutex: exclusion counted exactly, FIFO hand-over, Go's errors and wait reason. */
@ExtendWith(NoUncaughtExceptions.class)
class MutexTest {
    private int counter; // plain field: only the mutex makes the increments safe

    @ParameterizedTest(name = "maxProcs={0}")
    @ValueSource(ints = {1, 2})
    void protectsACounterAcrossGoroutinesAndPlatformThreads(int procs) {
        int goroutines = 8, platforms = 2;
        int m = TestSupport.stress(20_000, 2_000);
        Mutex mu = new Mutex();
        AtomicInteger inside = new AtomicInteger();
        counter = 0;
        try (GoRuntime rt = Mixed.runtime(procs, "mutex-count")) {
            Mixed.run(rt, goroutines, platforms, id -> {
                for (int i = 0; i < m; i++) {
                    mu.lock();
                    try {
                        assertEquals(1, inside.incrementAndGet(), "two holders at once");
                        counter++;
                        inside.decrementAndGet();
                    } finally {
                        mu.unlock();
                    }
                }
            });
        }
        assertEquals((goroutines + platforms) * m, counter);
        assertFalse(mu.isLocked());
    }

    @Test
    void waitersAreServedInArrivalOrderAndShowInTheDump() {
        try (GoRuntime rt = Mixed.runtime(2, "mutex-fifo")) {
            Mutex mu = new Mutex();
            mu.lock(); // held by the test thread
            int n = 5;
            List<Integer> order = new ArrayList<>(); // guarded by mu
            CountDownLatch all = new CountDownLatch(n);
            for (int i = 0; i < n; i++) {
                int id = i;
                rt.go(() -> {
                    mu.lock();
                    order.add(id);
                    mu.unlock();
                    all.countDown();
                });
                // Queue them one at a time, so arrival order is known.
                TestSupport.awaitCondition(() -> Mixed.parkedWith(rt, "sync.Mutex.Lock") == id + 1, rt::dump);
            }
            assertFalse(mu.tryLock(), "locked");
            mu.unlock();
            TestSupport.await(all, rt::dump);
            mu.lock();
            assertEquals(List.of(0, 1, 2, 3, 4), order);
            mu.unlock();
        }
    }

    @Test
    void tryLockAndGoErrors() {
        Mutex mu = new Mutex();
        assertTrue(mu.tryLock());
        assertFalse(mu.tryLock(), "not reentrant");
        mu.unlock();
        IllegalStateException e = assertThrows(IllegalStateException.class, mu::unlock);
        assertEquals("sync: unlock of unlocked mutex", e.getMessage());
        mu.lock(); // still usable after the misuse
        mu.unlock();
    }

    @Test
    void anotherThreadMayUnlock() {
        try (GoRuntime rt = Mixed.runtime(1, "mutex-handoff")) {
            Mutex mu = new Mutex();
            mu.lock();
            TestSupport.runInGoroutine(rt, mu::unlock); // Go: not tied to a goroutine
            assertTrue(mu.tryLock());
            mu.unlock();
        }
    }
}
