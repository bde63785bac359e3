package io.gmp4j;

import io.gmp4j.runtime.G;
import io.gmp4j.runtime.NetpollThread;
import io.gmp4j.runtime.Scheduler;
import io.gmp4j.runtime.TaskBatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.*;

/** The scheduler's hook for a poller on a thread of its own (the netpoll module's). */
@ExtendWith(NoUncaughtExceptions.class)
class NetpollThreadTest {

    /** A stand-in poller: waiters as the test says, shutdown recorded. */
    static final class FakePoller implements NetpollThread {
        final AtomicInteger waiters = new AtomicInteger();
        final AtomicInteger shutdowns = new AtomicInteger();

        @Override
        public boolean hasWaiters() {
            return waiters.get() > 0;
        }

        @Override
        public String describe() {
            return "fake waiters=" + waiters.get();
        }

        @Override
        public void shutdown(long timeoutMillis) {
            shutdowns.incrementAndGet();
        }
    }

    @Test
    void wakesFromThePollerThreadAreInjectedAsOneBatch() throws Exception {
        try (GoRuntime rt = GoRuntime.builder().maxProcs(2).name("batch").build()) {
            Scheduler s = rt.scheduler();
            int n = 50;
            G[] gs = new G[n];
            CountDownLatch parked = new CountDownLatch(n);
            CountDownLatch ran = new CountDownLatch(n);
            AtomicBoolean released = new AtomicBoolean();
            AtomicInteger early = new AtomicInteger();
            for (int i = 0; i < n; i++) {
                int id = i;
                rt.go(() -> {
                    gs[id] = G.current();
                    parked.countDown();
                    G.current().park("IO wait");
                    if (!released.get()) {
                        early.incrementAndGet();
                    }
                    ran.countDown();
                });
            }
            TestSupport.await(parked, () -> "goroutines never started");
            // wait until each is really parked, so ready() unparks (and so executes) it
            TestSupport.awaitCondition(() -> {
                for (G g : gs) {
                    if (g.thread().getState() != Thread.State.WAITING) {
                        return false;
                    }
                }
                return true;
            }, () -> "goroutines never parked");
            long before = rt.stats().injections();
            AtomicReference<Throwable> failed = new AtomicReference<>();
            Thread poller = Thread.ofPlatform().start(() -> {
                try {
                    TaskBatch batch = new TaskBatch();
                    s.batchExecutesOf(Thread.currentThread(), batch);
                    assertThrows(IllegalStateException.class, () -> s.batchExecutesOf(Thread.currentThread(), batch));
                    for (G g : gs) {
                        g.ready(); // unpark -> Scheduler.execute on this thread -> the batch
                    }
                    assertEquals(n, batch.size(), "every wake collected, none queued");
                    released.set(true);
                    s.injectglist(batch);
                    assertTrue(batch.isEmpty());
                } catch (Throwable t) {
                    failed.set(t);
                }
            });
            poller.join(TestSupport.TIMEOUT_S * 1000);
            assertNull(failed.get(), () -> "poller thread failed: " + failed.get());
            TestSupport.await(ran, () -> rt.stats().toString());
            assertEquals(0, early.get(), "a goroutine ran before the batch was injected");
            assertEquals(before + n, rt.stats().injections());
            // Another thread's wakes are not batched.
            assertThrows(IllegalStateException.class, () -> s.batchExecutesOf(poller, new TaskBatch()));
        }
    }

    @Test
    void aGoroutineWaitingOnTheAttachedPollerIsNotADeadlock() throws Exception {
        try (GoRuntime rt = GoRuntime.builder().maxProcs(2).name("np-checkdead").build()) {
            FakePoller fake = new FakePoller();
            assertSame(fake, rt.scheduler().netpollThread(() -> fake));
            assertSame(fake, rt.scheduler().netpollThread(FakePoller::new), "attached once");
            assertTrue(rt.stats().counters().contains("netpoll=[fake"), rt.stats().counters());
            AtomicReference<G> main = new AtomicReference<>();
            Thread waker = Thread.ofPlatform().daemon().start(() -> {
                TestSupport.awaitCondition(() -> main.get() != null && fake.hasWaiters(), () -> "main never waited");
                TestSupport.awaitCondition(() -> {
                    var st = rt.stats();
                    return st.idleThreads() == st.threads() - 1; // every M idle: checkdead has run
                }, () -> "Ms never went idle");
                main.get().ready();
            });
            Throwable t = TestSupport.runMain(rt, () -> {
                fake.waiters.incrementAndGet();
                main.set(G.current());
                G.current().park("IO wait");
                fake.waiters.decrementAndGet();
            });
            waker.join(TestSupport.TIMEOUT_S * 1000);
            assertNull(t, () -> "unexpected " + t);
            // With no waiters, the same park is a deadlock.
            Throwable dead = TestSupport.runMain(rt, () -> G.current().park("IO wait"));
            assertInstanceOf(DeadlockError.class, dead);
        }
    }

    @Test
    void closeShutsThePollerDownAndAClosedRuntimeAttachesNone() {
        GoRuntime rt = GoRuntime.builder().maxProcs(1).name("np-close").build();
        FakePoller fake = new FakePoller();
        rt.scheduler().netpollThread(() -> fake);
        rt.close();
        assertEquals(1, fake.shutdowns.get());
        FakePoller late = new FakePoller();
        GoRuntime closed = GoRuntime.builder().maxProcs(1).name("np-closed").build();
        closed.close();
        assertThrows(RejectedExecutionException.class, () -> closed.scheduler().netpollThread(() -> late));
        assertNull(closed.scheduler().netpollThread());
    }
}
