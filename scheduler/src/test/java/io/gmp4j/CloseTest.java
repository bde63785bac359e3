package io.gmp4j;

import io.gmp4j.runtime.Scheduler;
import io.gmp4j.runtime.G;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.*;

/** close() stops every runtime thread; a closed runtime rejects work with a message naming it. */
@ExtendWith(NoUncaughtExceptions.class)
class CloseTest {
    @Test
    void closeStopsAllThreadsAndWakingAnAbandonedGoroutineIsRejected() {
        GoRuntime rt = GoRuntime.builder().maxProcs(2).name("close-abandoned").build();
        Thread parked;
        try (rt) {
            CountDownLatch ran = new CountDownLatch(1000);
            for (int i = 0; i < 1000; i++) {
                rt.go(ran::countDown);
            }
            TestSupport.await(ran, () -> rt.stats().toString());
            CountDownLatch started = new CountDownLatch(1);
            Thread[] holder = new Thread[1];
            rt.go(() -> {
                holder[0] = Thread.currentThread();
                started.countDown();
                while (true) {
                    LockSupport.park(); // abandoned by close()
                }
            });
            TestSupport.await(started, () -> rt.stats().toString());
            parked = holder[0];
            TestSupport.awaitCondition(() -> parked.getState() == Thread.State.WAITING, () -> "never parked");
            assertFalse(Scheduler.of(rt).threads().isEmpty(), "Ms and sysmon run before close");
        }
        assertTrue(rt.isClosed());
        assertEquals(java.util.List.of(), Scheduler.of(rt).threads(), "every M and sysmon has ended");

        RejectedExecutionException e = assertThrows(RejectedExecutionException.class, () -> LockSupport.unpark(parked));
        assertTrue(e.getMessage().contains("close-abandoned"), e.getMessage());

        e = assertThrows(RejectedExecutionException.class, () -> rt.go(() -> { }));
        assertTrue(e.getMessage().contains("close-abandoned"), e.getMessage());

        e = assertThrows(RejectedExecutionException.class,
                () -> Scheduler.of(rt).newTimer(() -> { }).reset(System.nanoTime()));
        assertTrue(e.getMessage().contains("close-abandoned"), e.getMessage());

        rt.close(); // idempotent
        assertEquals(java.util.List.of(), Scheduler.of(rt).threads());
    }

    @Test
    void readyingAGoroutineParkedInGoParkAfterCloseIsRejected() {
        GoRuntime rt = GoRuntime.builder().maxProcs(1).name("close-gpark").build();
        G g;
        try (rt) {
            g = Scheduler.of(rt).go(() -> G.current().park("chan receive"));
            TestSupport.awaitCondition(() -> g.thread().getState() == Thread.State.WAITING, () -> "never parked");
        }
        RejectedExecutionException e = assertThrows(RejectedExecutionException.class, g::ready);
        assertTrue(e.getMessage().contains("close-gpark"), e.getMessage());
    }

    @Test
    void defaultRuntimeCannotBeClosed() {
        GoRuntime d = GoRuntime.defaultRuntime();
        assertSame(d, GoRuntime.defaultRuntime());
        assertThrows(UnsupportedOperationException.class, d::close);
        assertFalse(d.isClosed());
    }
}
