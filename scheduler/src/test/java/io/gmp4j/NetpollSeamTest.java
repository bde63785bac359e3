package io.gmp4j;

import io.gmp4j.runtime.Scheduler;
import io.gmp4j.runtime.G;
import io.gmp4j.runtime.spi.NetpollHost;
import io.gmp4j.runtime.spi.TaskBatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The scheduler's side of the netpoll seam ({@code io.gmp4j.runtime.spi}): a poller thread's
 * turns, netpoll's result list in findRunnable, checkdead and close.
 */
@ExtendWith(NoUncaughtExceptions.class)
class NetpollSeamTest {

    @Test
    void wakesFromThePollerThreadAreInjectedAsOneBatch() throws Exception {
        try (GoRuntime rt = GoRuntime.builder().maxProcs(2).name("batch").build()) {
            NetpollHost host = FakeNetpoll.attach(rt).host;
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
                    Object token = host.beginTurn(batch);
                    assertThrows(IllegalStateException.class, () -> host.beginTurn(new TaskBatch()),
                            "a poller thread keeps one batch");
                    for (G g : gs) {
                        g.ready(); // unpark -> Scheduler.execute on this thread -> the batch
                    }
                    assertEquals(n, batch.size(), "every wake collected, none queued");
                    released.set(true);
                    host.endTurn(token, batch);
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
            // A second poller thread is refused.
            AtomicReference<Throwable> second = new AtomicReference<>();
            Thread other = Thread.ofPlatform().start(() -> {
                try {
                    host.beginTurn(new TaskBatch());
                } catch (Throwable t) {
                    second.set(t);
                }
            });
            other.join(TestSupport.TIMEOUT_S * 1000);
            assertInstanceOf(IllegalStateException.class, second.get());
        }
    }

    @Test
    void aGoroutineWaitingOnTheAttachedPollerIsNotADeadlock() throws Exception {
        try (GoRuntime rt = GoRuntime.builder().maxProcs(2).name("np-checkdead").build()) {
            FakeNetpoll fake = FakeNetpoll.attach(rt);
            assertSame(fake, Scheduler.of(rt).attachNetpoll(FakeNetpoll::new), "attached once");
            assertSame(fake, Scheduler.of(rt).attachedNetpoll());
            assertTrue(rt.stats().counters().contains("netpoll=[fake"), rt.stats().counters());
            AtomicReference<G> main = new AtomicReference<>();
            Thread waker = Thread.ofPlatform().daemon().start(() -> {
                TestSupport.awaitCondition(() -> main.get() != null && fake.netpollAnyWaiters(), () -> "main never waited");
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
        FakeNetpoll fake = FakeNetpoll.attach(rt);
        rt.close();
        assertEquals(1, fake.shutdowns.get());
        GoRuntime closed = GoRuntime.builder().maxProcs(1).name("np-closed").build();
        closed.close();
        assertThrows(RejectedExecutionException.class, () -> Scheduler.of(closed).attachNetpoll(FakeNetpoll::new));
        assertNull(Scheduler.of(closed).attachedNetpoll());
    }

    /**
     * What netpoll puts in its result list runs on the M that asked: a goroutine parked with
     * nothing else runnable is readied by the fake's netpoll from findRunnable (the ready goes
     * into the list, not to a queue) and runs.
     */
    @Test
    void aGoroutineNetpollReadiesIntoItsListRuns() throws Exception {
        try (GoRuntime rt = GoRuntime.builder().maxProcs(1).name("np-list").build()) {
            FakeNetpoll fake = FakeNetpoll.attach(rt);
            AtomicReference<G> g = new AtomicReference<>();
            CountDownLatch ran = new CountDownLatch(1);
            rt.go(() -> {
                g.set(G.current());
                G.current().park("IO wait");
                ran.countDown();
            });
            TestSupport.awaitCondition(() -> g.get() != null && g.get().thread().getState() == Thread.State.WAITING,
                    () -> "the goroutine never parked");
            long before = rt.stats().injections();
            fake.pending.set(g.get());
            // An M must look: a goroutine that ends at once sends one through findRunnable.
            rt.go(() -> {
            });
            TestSupport.await(ran, () -> "netpoll's goroutine never ran: " + rt.stats());
            assertNull(fake.pending.get());
            assertEquals(before, rt.stats().injections(), "a one-goroutine list runs on this P, no injectglist");
            assertTrue(fake.readiedWithDelay == 0 || fake.readiedWithDelay < 0,
                    "readied by netpoll(0) before stealing, or by the idle M's netpoll(-1): " + fake.readiedWithDelay);
        }
    }
}
