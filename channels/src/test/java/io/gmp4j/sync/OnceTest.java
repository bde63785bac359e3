package io.gmp4j.sync;

import io.gmp4j.GoRuntime;
import io.gmp4j.NoUncaughtExceptions;
import io.gmp4j.TestSupport;
import io.gmp4j.chan.Chan;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.*;

/** Once: f runs exactly once; everyone else waits for it and then sees its effects. */
@ExtendWith(NoUncaughtExceptions.class)
class OnceTest {
    private int value; // plain: published by the Once

    @ParameterizedTest(name = "maxProcs={0}")
    @ValueSource(ints = {1, 2})
    void runsOnceAndOthersWaitForIt(int procs) {
        int goroutines = 6, platforms = 2;
        try (GoRuntime rt = Mixed.runtime(procs, "once")) {
            Once once = new Once();
            AtomicInteger calls = new AtomicInteger();
            Chan<Boolean> gate = new Chan<>();
            CountDownLatch entered = new CountDownLatch(1);
            AtomicInteger returned = new AtomicInteger();
            value = 0;
            AtomicBoolean fOnGoroutine = new AtomicBoolean();
            Runnable f = () -> {
                calls.incrementAndGet();
                fOnGoroutine.set(Thread.currentThread().isVirtual());
                entered.countDown();
                gate.recv(); // hold the others until the test lets f finish
                value = 42;
            };
            AtomicReference<Throwable> failed = new AtomicReference<>();
            Thread runner = Thread.ofPlatform().daemon().start(() -> {
                try {
                    Mixed.run(rt, goroutines, platforms, id -> {
                        once.run(f);
                        assertEquals(42, value, "returned before f finished");
                        returned.incrementAndGet();
                    });
                } catch (Throwable t) {
                    failed.set(t);
                }
            });
            TestSupport.await(entered, rt::dump);
            // Every goroutine but f's own (if f runs on one) waits on the Once.
            int waitingGoroutines = goroutines - (fOnGoroutine.get() ? 1 : 0);
            TestSupport.awaitCondition(() -> Mixed.parkedWith(rt, "sync.Mutex.Lock") == waitingGoroutines, rt::dump);
            assertEquals(0, returned.get());
            assertFalse(once.isDone());
            gate.close();
            try {
                runner.join(TestSupport.TIMEOUT_S * 1000);
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
            assertFalse(runner.isAlive(), rt::dump);
            assertNull(failed.get());
            assertEquals(goroutines + platforms, returned.get());
            assertEquals(1, calls.get());
            assertTrue(once.isDone());
        }
    }

    @Test
    void aThrowingFunctionStillCompletesTheOnce() {
        Once once = new Once();
        AtomicInteger calls = new AtomicInteger();
        RuntimeException boom = new RuntimeException("boom");
        assertSame(boom, assertThrows(RuntimeException.class, () -> once.run(() -> {
            calls.incrementAndGet();
            throw boom;
        })));
        once.run(calls::incrementAndGet); // Go: Do considers f returned even if it panicked
        assertEquals(1, calls.get());
        assertTrue(once.isDone());
    }
}
