package io.gmp4j.sync;

import io.gmp4j.GoRuntime;
import io.gmp4j.NoUncaughtExceptions;
import io.gmp4j.TestSupport;
import io.gmp4j.context.Cancelable;
import io.gmp4j.context.Context;
import io.gmp4j.context.ContextException;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.*;

/** Weighted semaphore: never over its size, FIFO without barging, withdrawn by a context. */
@ExtendWith(NoUncaughtExceptions.class)
class SemaphoreTest {
    @ParameterizedTest(name = "maxProcs={0}")
    @ValueSource(ints = {1, 2})
    void neverExceedsItsWeight(int procs) {
        int size = 5;
        int ops = TestSupport.stress(5_000, 500);
        Semaphore sem = new Semaphore(size);
        AtomicLong inside = new AtomicLong();
        AtomicLong peak = new AtomicLong();
        try (GoRuntime rt = Mixed.runtime(procs, "sem-weight")) {
            Mixed.run(rt, 6, 2, id -> {
                ThreadLocalRandom rnd = ThreadLocalRandom.current();
                for (int i = 0; i < ops; i++) {
                    long n = 1 + rnd.nextInt(3);
                    sem.acquire(n);
                    long now = inside.addAndGet(n);
                    assertTrue(now <= size, () -> "held " + now + " > " + size);
                    peak.accumulateAndGet(now, Math::max);
                    inside.addAndGet(-n);
                    sem.release(n);
                }
            });
        }
        assertEquals(0, sem.held());
        assertTrue(peak.get() > 1, "never concurrent: " + peak.get());
    }

    @Test
    void aBigRequestAtTheHeadBlocksSmallerOnesBehindIt() {
        try (GoRuntime rt = Mixed.runtime(2, "sem-fifo")) {
            Semaphore sem = new Semaphore(5);
            sem.acquire(5);
            CountDownLatch all = new CountDownLatch(3);
            long[] needs = {4, 1, 1};
            for (int i = 0; i < needs.length; i++) {
                long n = needs[i];
                int queued = i + 1;
                rt.go(() -> {
                    sem.acquire(n);
                    all.countDown();
                });
                TestSupport.awaitCondition(() -> sem.waiting() == queued, sem::toString);
            }
            assertFalse(sem.tryAcquire(1), "no barging past waiters");
            sem.release(1); // 1 free: the head wants 4, and the 1s behind it must not pass
            assertEquals(4, sem.held());
            assertEquals(3, sem.waiting());
            sem.release(3); // 4 free: the head gets in, nothing left for the next
            assertEquals(5, sem.held());
            assertEquals(2, sem.waiting());
            sem.release(1); // the test holds nothing now; the next 1 gets in
            assertEquals(5, sem.held());
            assertEquals(1, sem.waiting());
            sem.release(4 + 1); // what the first two took
            TestSupport.await(all, rt::dump);
            assertEquals(1, sem.held());
            sem.release(1);
            assertEquals(0, sem.held());
        }
    }

    @Test
    void aCanceledContextWithdrawsTheRequestAndUnblocksThoseBehind() {
        try (GoRuntime rt = Mixed.runtime(2, "sem-cancel")) {
            Semaphore sem = new Semaphore(5);
            sem.acquire(4); // 1 free
            Cancelable c = Context.withCancel(Context.background());
            AtomicReference<Throwable> bigGot = new AtomicReference<>();
            CountDownLatch bigDone = new CountDownLatch(1);
            rt.go(() -> {
                try {
                    sem.acquire(c.ctx(), 3);
                } catch (Throwable t) {
                    bigGot.set(t);
                }
                bigDone.countDown();
            });
            TestSupport.awaitCondition(() -> sem.waiting() == 1, sem::toString);
            CountDownLatch smallDone = new CountDownLatch(1);
            rt.go(() -> {
                sem.acquire(1); // fits, but waits behind the big one
                smallDone.countDown();
            });
            TestSupport.awaitCondition(() -> sem.waiting() == 2, sem::toString);
            c.cancel();
            TestSupport.await(bigDone, rt::dump);
            assertSame(Context.CANCELED, bigGot.get());
            TestSupport.await(smallDone, rt::dump); // the withdrawn head let it through
            assertEquals(5, sem.held());
            assertEquals(0, sem.waiting());
        }
    }

    @Test
    void deadlinesAndDoneContexts() {
        try (GoRuntime rt = Mixed.runtime(1, "sem-deadline")) {
            Semaphore sem = new Semaphore(2);
            TestSupport.runInGoroutine(rt, () -> {
                sem.acquire(2);
                try (Cancelable c = Context.withTimeout(Context.background(), Duration.ofMillis(20))) {
                    ContextException e = assertThrows(ContextException.class, () -> sem.acquire(c.ctx(), 1));
                    assertSame(Context.DEADLINE_EXCEEDED, e);
                    assertEquals("context deadline exceeded", e.getMessage());
                    // More than the size: waits for the context only, as in Go.
                    assertSame(Context.DEADLINE_EXCEEDED, assertThrows(ContextException.class, () -> sem.acquire(c.ctx(), 3)));
                }
                sem.release(2);
                Cancelable done = Context.withCancel(Context.background());
                done.cancel();
                // A done context never acquires, even when the weight is free (Go checks Done first).
                assertSame(Context.CANCELED, assertThrows(ContextException.class, () -> sem.acquire(done.ctx(), 1)));
                assertEquals(0, sem.held());
                assertThrows(IllegalArgumentException.class, () -> sem.acquire(3), "could never succeed");
                assertThrows(IllegalStateException.class, () -> sem.release(1));
            });
        }
    }

    @ParameterizedTest(name = "maxProcs={0}")
    @ValueSource(ints = {1, 2})
    void cancellationsRacingReleasesLoseNoWeight(int procs) {
        int size = 3;
        int ops = TestSupport.stress(2_000, 300);
        Semaphore sem = new Semaphore(size);
        AtomicLong inside = new AtomicLong();
        AtomicInteger canceled = new AtomicInteger();
        try (GoRuntime rt = Mixed.runtime(procs, "sem-race")) {
            Mixed.run(rt, 6, 2, id -> {
                ThreadLocalRandom rnd = ThreadLocalRandom.current();
                for (int i = 0; i < ops; i++) {
                    long n = 1 + rnd.nextInt(size);
                    Cancelable c = Context.withCancel(Context.background());
                    if (rnd.nextInt(4) == 0) {
                        c.cancel(); // sometimes before, ...
                    } else if (rnd.nextBoolean()) {
                        rt.go(c::cancel); // ... sometimes while it waits or just as it is granted
                    }
                    try {
                        sem.acquire(c.ctx(), n);
                    } catch (ContextException e) {
                        canceled.incrementAndGet();
                        continue;
                    } finally {
                        c.cancel();
                    }
                    long now = inside.addAndGet(n);
                    assertTrue(now <= size, () -> "held " + now);
                    inside.addAndGet(-n);
                    sem.release(n);
                }
            });
        }
        assertEquals(0, sem.held(), sem::toString);
        assertEquals(0, sem.waiting(), sem::toString);
        assertTrue(canceled.get() > 0);
    }
}
