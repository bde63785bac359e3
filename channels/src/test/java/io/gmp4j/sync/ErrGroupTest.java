package io.gmp4j.sync;

import io.gmp4j.GoRuntime;
import io.gmp4j.NoUncaughtExceptions;
import io.gmp4j.TestSupport;
import io.gmp4j.chan.Chan;
import io.gmp4j.context.Context;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.*;

/** ErrGroup: the first error wins and cancels the group's context; setLimit bounds the tasks. */
@ExtendWith(NoUncaughtExceptions.class)
class ErrGroupTest {
    @ParameterizedTest(name = "maxProcs={0}")
    @ValueSource(ints = {1, 2})
    void firstErrorWinsAndCancelsTheContext(int procs) {
        try (GoRuntime rt = Mixed.runtime(procs, "errgroup-first")) {
            TestSupport.runInGoroutine(rt, () -> {
                Context parent = Context.withValue(Context.background(), "k", "v");
                ErrGroup g = ErrGroup.withContext(parent);
                Context ctx = g.context();
                assertEquals("v", ctx.value("k"));
                AtomicInteger sawCancel = new AtomicInteger();
                int others = 20;
                for (int i = 0; i < others; i++) {
                    g.go(() -> {
                        ctx.done().recv(); // only the first error can end this
                        sawCancel.incrementAndGet();
                        throw new IllegalStateException("late: " + ctx.err().getMessage());
                    });
                }
                IOException first = new IOException("first");
                g.go(() -> {
                    throw first;
                });
                assertSame(first, g.await());
                assertEquals(others, sawCancel.get());
                assertSame(Context.CANCELED, ctx.err());
                assertNull(parent.err(), "the parent is not canceled");
            });
        }
    }

    @Test
    void noErrorAwaitReturnsNullAndStillCancelsTheContext() {
        try (GoRuntime rt = Mixed.runtime(2, "errgroup-ok")) {
            TestSupport.runInGoroutine(rt, () -> {
                ErrGroup g = ErrGroup.withContext(Context.background());
                AtomicInteger ran = new AtomicInteger();
                for (int i = 0; i < 100; i++) {
                    g.go(ran::incrementAndGet);
                }
                assertNull(g.await());
                assertEquals(100, ran.get());
                assertSame(Context.CANCELED, g.context().err(), "Wait cancels the context, as in Go");
                ErrGroup plain = new ErrGroup();
                plain.go(() -> { });
                assertNull(plain.await());
            });
        }
    }

    @ParameterizedTest(name = "maxProcs={0}")
    @ValueSource(ints = {1, 2})
    void setLimitNeverExceedsTheLimit(int procs) {
        int tasks = TestSupport.stress(2_000, 300);
        int limit = 3;
        try (GoRuntime rt = Mixed.runtime(procs, "errgroup-limit")) {
            AtomicInteger active = new AtomicInteger();
            AtomicInteger peak = new AtomicInteger();
            AtomicInteger ran = new AtomicInteger();
            TestSupport.runInGoroutine(rt, () -> {
                ErrGroup g = new ErrGroup();
                g.setLimit(limit);
                for (int i = 0; i < tasks; i++) {
                    g.go(() -> {
                        int now = active.incrementAndGet();
                        peak.accumulateAndGet(now, Math::max);
                        if (now > limit) {
                            throw new AssertionError("active " + now + " > limit " + limit);
                        }
                        Thread.yield(); // let others try to get in meanwhile
                        active.decrementAndGet();
                        ran.incrementAndGet();
                    });
                }
                assertNull(g.await());
            });
            assertEquals(tasks, ran.get());
            assertTrue(peak.get() <= limit, "peak " + peak.get());
        }
    }

    @Test
    void tryGoRefusesWhenFullAndSetLimitWhileActiveFails() {
        try (GoRuntime rt = Mixed.runtime(2, "errgroup-trygo")) {
            TestSupport.runInGoroutine(rt, () -> {
                ErrGroup g = new ErrGroup();
                g.setLimit(1);
                Chan<Boolean> gate = new Chan<>();
                assertTrue(g.tryGo(gate::recv));
                assertFalse(g.tryGo(() -> fail("must not run")));
                IllegalStateException e = assertThrows(IllegalStateException.class, () -> g.setLimit(2));
                assertTrue(e.getMessage().startsWith("errgroup: modify limit while 1 goroutines"), e.getMessage());
                gate.close();
                assertNull(g.await());
                assertTrue(g.tryGo(() -> { }));
                assertNull(g.await());
            });
        }
    }
}
