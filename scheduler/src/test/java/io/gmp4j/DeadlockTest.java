package io.gmp4j;

import io.gmp4j.runtime.Scheduler;
import io.gmp4j.runtime.G;
import io.gmp4j.runtime.RuntimeTimer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.*;

/** GoRuntime.main reports Go's "all goroutines are asleep - deadlock!" and only then. */
@ExtendWith(NoUncaughtExceptions.class)
class DeadlockTest {

    @Test
    void mainParkedForeverIsADeadlock() throws Exception {
        try (GoRuntime rt = GoRuntime.builder().maxProcs(2).name("deadlock-main").build()) {
            Throwable t = TestSupport.runMain(rt, () -> G.current().park("chan receive"));
            DeadlockError e = assertInstanceOf(DeadlockError.class, t);
            assertTrue(e.getMessage().startsWith("all goroutines are asleep - deadlock!"), e.getMessage());
            assertTrue(e.getMessage().contains("goroutine 1 [chan receive"), e.getMessage());
            assertTrue(e.dump().contains("goroutine 1 [chan receive]:"), e.dump());
            assertTrue(e.getMessage().endsWith(e.dump()));
        }
    }

    @Test
    void twoGoroutinesParkedForeverAreADeadlock() throws Exception {
        try (GoRuntime rt = GoRuntime.builder().maxProcs(2).name("deadlock-two").build()) {
            Throwable t = TestSupport.runMain(rt, () -> {
                Go.go(() -> G.current().park("select"));
                G.current().park("chan receive");
            });
            DeadlockError e = assertInstanceOf(DeadlockError.class, t);
            String msg = e.getMessage();
            assertTrue(msg.contains(DeadlockError.MESSAGE), msg);
            assertTrue(msg.contains("goroutine 1 [chan receive"), msg);
            assertTrue(msg.contains("goroutine 2 [select"), msg);
        }
    }

    @Test
    void mainReadiedByATimerIsNotADeadlock() throws Exception {
        try (GoRuntime rt = GoRuntime.builder().maxProcs(2).name("deadlock-timer").build()) {
            AtomicLong early = new AtomicLong(-1);
            Throwable t = TestSupport.runMain(rt, () -> {
                G g = G.current();
                long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(50);
                RuntimeTimer timer = Scheduler.of(rt).newTimer(g::ready);
                timer.reset(deadline);
                g.park("sleep");
                early.set(deadline - System.nanoTime());
            });
            assertNull(t, () -> "unexpected " + t);
            assertTrue(early.get() <= 0, () -> "woke " + early.get() + " ns before the timer's deadline");
        }
    }

    @Test
    void goroutineInThreadSleepIsNotAsleepInGoSense() throws Exception {
        try (GoRuntime rt = GoRuntime.builder().maxProcs(1).name("deadlock-sleep").build()) {
            Throwable t = TestSupport.runMain(rt, () -> {
                G main = G.current();
                Go.go(() -> {
                    try {
                        Thread.sleep(50); // a JDK timed park: it will wake, so no deadlock
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    main.ready();
                });
                main.park("chan receive");
            });
            assertNull(t, () -> "unexpected " + t);
        }
    }

    @Test
    void mainReturningLeavesParkedGoroutinesBehind() throws Exception {
        try (GoRuntime rt = GoRuntime.builder().maxProcs(2).name("deadlock-leftover").build()) {
            Throwable t = TestSupport.runMain(rt, () -> Go.go(() -> G.current().park("chan receive")));
            assertNull(t, () -> "unexpected " + t);
        }
    }

    @Test
    void mainFailureIsRethrownAsIs() throws Exception {
        try (GoRuntime rt = GoRuntime.builder().maxProcs(1).name("deadlock-failure").build()) {
            IllegalStateException boom = new IllegalStateException("boom");
            Throwable t = TestSupport.runMain(rt, () -> {
                throw boom;
            });
            assertSame(boom, t);
        }
    }
}
