package io.gmp4j.context;

import io.gmp4j.DeadlockError;
import io.gmp4j.Go;
import io.gmp4j.GoRuntime;
import io.gmp4j.NoUncaughtExceptions;
import io.gmp4j.TestSupport;
import io.gmp4j.chan.Chan;
import io.gmp4j.chan.Select;
import io.gmp4j.time.Bubbles;
import io.gmp4j.time.Time;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The context tree: cancel flows down, never up; deadlines fire on runtime timers (on a synctest
 * bubble's clock where exact times are asserted); values chain.
 */
@ExtendWith(NoUncaughtExceptions.class)
class ContextTest {
    @Test
    void cancelPropagatesToDescendantsAndFiresDoneInASelect() {
        try (GoRuntime rt = GoRuntime.builder().maxProcs(2).name("ctx-propagate").build()) {
            Bubbles.run(rt, () -> {
                Cancelable root = Context.withCancel(Context.background());
                Cancelable child = Context.withCancel(Context.withValue(root.ctx(), "k", 1));
                Cancelable grandchild = Context.withTimeout(child.ctx(), Duration.ofHours(1));
                Chan<Integer> work = new Chan<>();
                AtomicInteger fired = new AtomicInteger(-2);
                int[] doneCase = new int[1];
                Go.go(() -> {
                    Select s = new Select();
                    s.recv(work);
                    doneCase[0] = s.recv(grandchild.ctx().done());
                    fired.set(s.select());
                });
                Bubbles.await(); // the goroutine waits in its select
                assertEquals(-2, fired.get());
                assertNull(grandchild.ctx().err());
                root.cancel();
                Bubbles.await();
                assertEquals(doneCase[0], fired.get());
                assertEquals(Instant.parse("2000-01-01T00:00:00Z"), Time.now(), "a cancel, not the hour's timeout");
                for (Context c : List.of(root.ctx(), child.ctx(), grandchild.ctx())) {
                    assertSame(Context.CANCELED, c.err(), c::toString);
                    assertFalse(c.done().recvOk().ok(), "done is closed");
                }
                assertEquals("context canceled", Context.CANCELED.getMessage());
                assertEquals(0, ((CancelCtx) root.ctx()).childCount(), "a canceled parent drops its children");
            });
        }
    }

    @Test
    void cancelingAChildLeavesTheParentAndDetachesFromIt() {
        Cancelable parent = Context.withCancel(Context.background());
        CancelCtx p = (CancelCtx) parent.ctx();
        List<Cancelable> kids = new ArrayList<>();
        for (int i = 0; i < 1_000; i++) {
            // through a value context: registration skips to the nearest cancelable ancestor
            kids.add(Context.withCancel(Context.withValue(parent.ctx(), "i", i)));
        }
        Cancelable timed = Context.withTimeout(parent.ctx(), Duration.ofHours(1));
        assertEquals(1_001, p.childCount());
        for (Cancelable k : kids) {
            k.cancel();
            k.cancel(); // idempotent
        }
        timed.close();
        assertEquals(0, p.childCount(), "canceled children must not stay reachable from the parent");
        assertNull(parent.ctx().err());
        assertNull(parent.ctx().done().tryRecv(), "the parent is not done");
        assertSame(Context.CANCELED, timed.ctx().err());
        parent.cancel();
    }

    @Test
    void childrenOfADoneParentAreBornDone() {
        Cancelable parent = Context.withCancel(Context.todo());
        parent.cancel();
        Cancelable child = Context.withCancel(parent.ctx());
        assertSame(Context.CANCELED, child.ctx().err());
        assertEquals(0, ((CancelCtx) parent.ctx()).childCount());
        Cancelable timed = Context.withTimeout(parent.ctx(), Duration.ofHours(1));
        assertSame(Context.CANCELED, timed.ctx().err(), "the parent's reason is inherited");
    }

    @Test
    void timeoutAndDeadlineEndWithDeadlineExceeded() {
        try (GoRuntime rt = GoRuntime.builder().maxProcs(1).name("ctx-timeout").build()) {
            Bubbles.run(rt, () -> {
                Instant start = Time.now();
                Cancelable c = Context.withTimeout(Context.background(), Duration.ofMillis(20));
                Cancelable child = Context.withCancel(c.ctx());
                assertEquals(start.plusMillis(20), c.ctx().deadline().orElseThrow());
                assertEquals(c.ctx().deadline(), child.ctx().deadline(), "children inherit the deadline");
                assertNull(child.ctx().done().recv());
                assertEquals(Duration.ofMillis(20), Time.since(start), "fired exactly at its deadline");
                assertSame(Context.DEADLINE_EXCEEDED, c.ctx().err());
                assertSame(Context.DEADLINE_EXCEEDED, child.ctx().err());
                assertTrue(c.ctx().err().isTimeout());
                assertEquals("context deadline exceeded", c.ctx().err().getMessage());
                c.cancel(); // after the deadline: the reason stays
                assertSame(Context.DEADLINE_EXCEEDED, c.ctx().err());

                Cancelable past = Context.withDeadline(Context.background(), Time.now().minusSeconds(1));
                assertSame(Context.DEADLINE_EXCEEDED, past.ctx().err(), "a past deadline is done at once");
                Cancelable at = Context.withDeadline(Context.background(), Time.now().plusSeconds(90));
                at.ctx().done().recv();
                assertEquals(Duration.ofMillis(20).plusSeconds(90), Time.since(start));
                Cancelable nanos = Context.withDeadlineNanos(Context.background(),
                        io.gmp4j.runtime.spi.Clock.nanoTime() + 5_000_000);
                Select s = new Select();
                int d = s.recv(nanos.ctx().done());
                s.timeout(Duration.ofSeconds(TestSupport.TIMEOUT_S));
                assertEquals(d, s.select());
                assertEquals(Duration.ofMillis(25).plusSeconds(90), Time.since(start));
                assertSame(Context.DEADLINE_EXCEEDED, nanos.ctx().err());
            });
        }
    }

    @Test
    void anEarlierParentDeadlineWins() {
        Cancelable parent = Context.withTimeout(Context.background(), Duration.ofMinutes(1));
        Cancelable child = Context.withTimeout(parent.ctx(), Duration.ofHours(1));
        assertEquals(parent.ctx().deadline(), child.ctx().deadline());
        Cancelable sooner = Context.withTimeout(parent.ctx(), Duration.ofSeconds(1));
        assertTrue(sooner.ctx().deadline().orElseThrow().isBefore(parent.ctx().deadline().orElseThrow()));
        parent.cancel();
        assertSame(Context.CANCELED, sooner.ctx().err());
    }

    @Test
    void aGoroutineWaitingForADeadlineIsNotADeadlock() throws Exception {
        try (GoRuntime rt = GoRuntime.builder().maxProcs(2).name("ctx-timer-deadlock").build()) {
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            AtomicReference<ContextException> err = new AtomicReference<>();
            Thread t = Thread.ofPlatform().daemon().start(() -> {
                try {
                    rt.main(() -> {
                        Cancelable c = Context.withTimeout(Context.background(), Duration.ofMillis(30));
                        c.ctx().done().recv(); // only the runtime timer can end this
                        err.set(c.ctx().err());
                    });
                } catch (Throwable e) {
                    thrown.set(e);
                }
            });
            t.join(TestSupport.TIMEOUT_S * 1000);
            assertFalse(t.isAlive(), rt::dump);
            assertNull(thrown.get(), () -> "unexpected " + thrown.get());
            assertSame(Context.DEADLINE_EXCEEDED, err.get());
            assertFalse(thrown.get() instanceof DeadlockError);
        }
    }

    @Test
    void valuesChainUpTheTree() {
        Object a = new Object(), b = new Object(), missing = new Object();
        Context c = Context.withValue(Context.background(), a, 1);
        Cancelable mid = Context.withCancel(c);
        c = Context.withValue(mid.ctx(), b, 2);
        c = Context.withValue(c, a, 3); // shadows the outer a
        assertEquals(3, c.value(a));
        assertEquals(2, c.value(b));
        assertNull(c.value(missing));
        assertEquals(1, mid.ctx().value(a));
        assertNull(Context.background().value(a));
        assertThrows(NullPointerException.class, () -> Context.withValue(Context.background(), null, 1));
    }

    @Test
    void backgroundIsNeverDone() {
        for (Context c : List.of(Context.background(), Context.todo(), Context.withValue(Context.background(), "k", "v"))) {
            assertNull(c.err());
            assertNull(c.done().tryRecv());
            assertTrue(c.deadline().isEmpty());
        }
        assertEquals("context.Background", Context.background().toString());
        assertEquals("context.TODO", Context.todo().toString());
    }

    @Test
    void onDoneRunsOnceAndStopDetaches() {
        Cancelable c = Context.withCancel(Context.background());
        AtomicInteger runs = new AtomicInteger();
        StopFunc kept = Context.onDone(c.ctx(), runs::incrementAndGet);
        StopFunc stopped = Context.onDone(c.ctx(), () -> fail("stopped callback ran"));
        assertTrue(stopped.stop());
        assertFalse(stopped.stop());
        assertEquals(1, ((CancelCtx) c.ctx()).childCount());
        c.cancel();
        c.cancel();
        assertEquals(1, runs.get());
        assertFalse(kept.stop(), "already ran");
        Context.onDone(c.ctx(), runs::incrementAndGet); // already done: runs at once
        assertEquals(2, runs.get());
        assertFalse(Context.onDone(Context.background(), () -> fail("never")).stop());
    }

    @Test
    void concurrentChildrenAndCancelsLeaveNoChildBehind() {
        int perWorker = TestSupport.stress(5_000, 500);
        try (GoRuntime rt = GoRuntime.builder().maxProcs(2).name("ctx-concurrent").build()) {
            Cancelable parent = Context.withCancel(Context.background());
            int workers = 6;
            CountDownLatch done = new CountDownLatch(workers + 1);
            AtomicReference<Throwable> failed = new AtomicReference<>();
            for (int w = 0; w < workers + 1; w++) {
                Runnable r = () -> {
                    try {
                        for (int i = 0; i < perWorker; i++) {
                            // some timers fire while cancel runs: both must detach the child
                            Cancelable k = (i & 1) == 0
                                    ? Context.withCancel(parent.ctx())
                                    : Context.withTimeout(parent.ctx(), Duration.ofNanos(i * 1_000L));
                            k.cancel();
                            assertNotNull(k.ctx().err());
                        }
                    } catch (Throwable t) {
                        failed.compareAndSet(null, t);
                    } finally {
                        done.countDown();
                    }
                };
                if (w < workers) {
                    rt.go(r);
                } else {
                    Thread.ofPlatform().daemon().start(r);
                }
            }
            TestSupport.await(done, rt::dump);
            assertNull(failed.get());
            assertEquals(0, ((CancelCtx) parent.ctx()).childCount());
            parent.cancel();
        }
    }
}
