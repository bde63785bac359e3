package io.gmp4j;

import io.gmp4j.runtime.G;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.*;

/**
 * An exception that ends a goroutine is Go's unrecovered panic: under Go.main it ends the
 * process with status 2 after the report; under a runtime's own main it ends main and reaches
 * main's caller; a runtime with a panic handler hands it over and keeps serving; a runtime
 * with no main prints it and goes on.
 */
@ExtendWith(NoUncaughtExceptions.class)
class PanicTest {

    /** Go.main whose second goroutine panics while main waits (a bounded JDK wait, so main would return). */
    public static final class GoroutinePanicChild {
        public static void main(String[] args) throws InterruptedException {
            Go.main(() -> {
                CountDownLatch never = new CountDownLatch(1);
                Go.go(() -> panicInAGoroutine());
                try {
                    never.await(TestSupport.TIMEOUT_S / 3, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                System.out.println("main went on");
            });
            System.out.println("Go.main returned");
        }

        static void panicInAGoroutine() {
            System.out.println("goroutine " + G.current().id() + " panics");
            throw new IllegalStateException("boom from a goroutine");
        }
    }

    /** Go.main whose main goroutine itself panics. */
    public static final class MainPanicChild {
        public static void main(String[] args) {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> System.out.println("shutdown hook ran")));
            Go.main(() -> {
                throw new UnsupportedOperationException("boom from main");
            });
            System.out.println("Go.main returned");
        }
    }

    @Test
    void goroutinePanicUnderGoMainExitsTheProcessWithStatus2() throws IOException, InterruptedException {
        TestSupport.ChildRun run = TestSupport.runChildJvm(List.of(), TestSupport.GMP4J_JVM_FLAGS, GoroutinePanicChild.class);
        String out = run.output();
        assertEquals(2, run.exit(), out);
        String id = out.lines().filter(l -> l.endsWith(" panics")).findFirst().orElseThrow(() -> new AssertionError(out))
                .split(" ")[1];
        assertTrue(out.contains("panic: java.lang.IllegalStateException: boom from a goroutine\n\ngoroutine " + id
                + " [running]:\n"), out);
        assertTrue(out.contains("\tio.gmp4j.PanicTest$GoroutinePanicChild.panicInAGoroutine(PanicTest.java:"), out);
        assertFalse(out.contains("main went on"), out);
        assertFalse(out.contains("Go.main returned"), out);
        assertFalse(out.contains(DeadlockError.MESSAGE), out);
    }

    @Test
    void mainPanicUnderGoMainExitsWithStatus2AndRunsShutdownHooks() throws IOException, InterruptedException {
        TestSupport.ChildRun run = TestSupport.runChildJvm(List.of(), TestSupport.GMP4J_JVM_FLAGS, MainPanicChild.class);
        String out = run.output();
        assertEquals(2, run.exit(), out);
        assertTrue(out.contains("panic: java.lang.UnsupportedOperationException: boom from main\n\ngoroutine 1 [running]:\n"), out);
        assertTrue(out.contains("\tio.gmp4j.PanicTest$MainPanicChild.lambda$main$"), out);
        assertTrue(out.contains("shutdown hook ran"), out);
        assertFalse(out.contains("Go.main returned"), out);
    }

    @Test
    void goroutinePanicEndsRtMainAndReachesItsCaller() throws Exception {
        try (GoRuntime rt = GoRuntime.builder().maxProcs(2).name("panic-main").build()) {
            IllegalStateException boom = new IllegalStateException("boom");
            AtomicLong panicker = new AtomicLong();
            CountDownLatch release = new CountDownLatch(1);
            CountDownLatch leftBehindDone = new CountDownLatch(1);
            AtomicInteger mainReturned = new AtomicInteger();
            Throwable t = TestSupport.runMain(rt, () -> {
                Go.go(() -> { // left behind, as when main returns: it goes on after main ended
                    try {
                        release.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                    leftBehindDone.countDown();
                });
                Go.go(() -> {
                    panicker.set(G.current().id());
                    throw boom;
                });
                G.current().park("chan receive"); // never readied: only the panic ends main
                mainReturned.incrementAndGet();
            });
            assertSame(boom, t);
            assertEquals(1, boom.getSuppressed().length, () -> List.of(boom.getSuppressed()).toString());
            assertEquals("goroutine " + panicker.get() + " [running]: panicked while main ran",
                    boom.getSuppressed()[0].getMessage());
            assertEquals(0, mainReturned.get());
            release.countDown();
            TestSupport.await(leftBehindDone, () -> "the goroutine left behind did not go on: " + rt.dump());
            // The runtime still serves, and a second main may run.
            assertNull(TestSupport.runMain(rt, () -> { }));
        }
    }

    @Test
    void errorAndCheckedPanicsReachRtMainsCaller() throws Exception {
        try (GoRuntime rt = GoRuntime.builder().maxProcs(1).name("panic-error").build()) {
            AssertionError failed = new AssertionError("a failing assertion in a goroutine");
            Throwable t = TestSupport.runMain(rt, () -> {
                Go.go(() -> {
                    throw failed;
                });
                G.current().park("select");
            });
            assertSame(failed, t);
            Exception checked = new IOException("checked");
            Throwable t2 = TestSupport.runMain(rt, () -> {
                Go.go(() -> PanicTest.sneakyThrow(checked));
                G.current().park("select");
            });
            IllegalStateException wrapped = assertInstanceOf(IllegalStateException.class, t2);
            assertSame(checked, wrapped.getCause());
        }
    }

    @SuppressWarnings("unchecked")
    static <E extends Throwable> void sneakyThrow(Throwable t) throws E {
        throw (E) t;
    }

    @Test
    void panicHandlerIsCalledOncePerPanicAndTheRuntimeKeepsServing() throws Exception {
        int n = TestSupport.stress(20_000, 2_000);
        Map<Long, Throwable> seen = new ConcurrentHashMap<>();
        AtomicInteger calls = new AtomicInteger();
        CountDownLatch all = new CountDownLatch(n);
        try (GoRuntime rt = GoRuntime.builder().maxProcs(2).name("panic-handler")
                .panicHandler((id, e) -> {
                    calls.incrementAndGet();
                    if (seen.putIfAbsent(id, e) != null) {
                        throw new AssertionError("goroutine " + id + " handed over twice");
                    }
                    all.countDown();
                }).build()) {
            Map<Long, Throwable> thrown = new ConcurrentHashMap<>();
            Throwable t = TestSupport.runMain(rt, () -> {
                for (int i = 0; i < n; i++) {
                    int k = i;
                    Go.go(() -> {
                        RuntimeException e = new RuntimeException("panic " + k);
                        thrown.put(G.current().id(), e);
                        throw e;
                    });
                }
                try {
                    all.await(); // a JDK wait: checkdead leaves it alone
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            assertNull(t, () -> "main ended by " + t);
            assertEquals(n, calls.get());
            assertEquals(thrown, seen);
            // still serving: a plain goroutine after n panics
            CountDownLatch ran = new CountDownLatch(1);
            rt.go(ran::countDown);
            TestSupport.await(ran, () -> "the runtime stopped serving: " + rt.dump());
        }
    }

    @Test
    void failingPanicHandlerIsReportedAndTheRuntimeGoesOn() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream old = System.err;
        try (GoRuntime rt = GoRuntime.builder().maxProcs(1).name("panic-handler-fails")
                .panicHandler((id, e) -> {
                    calls.incrementAndGet();
                    throw new IllegalStateException("handler broke");
                }).build()) {
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            rt.go(() -> {
                throw new IllegalArgumentException("first");
            });
            TestSupport.awaitCondition(() -> err.toString(StandardCharsets.UTF_8).contains("handler broke"),
                    () -> "no report: " + err);
            CountDownLatch ran = new CountDownLatch(1);
            rt.go(ran::countDown);
            TestSupport.await(ran, () -> "the runtime stopped serving");
        } finally {
            System.setErr(old);
        }
        String out = err.toString(StandardCharsets.UTF_8);
        assertEquals(1, calls.get());
        assertTrue(out.contains("panic: java.lang.IllegalArgumentException: first"), out);
        assertTrue(out.contains("the panic handler of"), out);
    }

    @Test
    void panicWithoutMainIsPrintedAndTheRuntimeGoesOn() throws Exception {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream old = System.err;
        try (GoRuntime rt = GoRuntime.builder().maxProcs(1).name("panic-no-main").build()) {
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            AtomicLong id = new AtomicLong();
            rt.go(() -> {
                id.set(G.current().id());
                throw new IllegalStateException("nobody waits for main");
            });
            TestSupport.awaitCondition(() -> err.toString(StandardCharsets.UTF_8).contains("[running]:"),
                    () -> "no report: " + err);
            String out = err.toString(StandardCharsets.UTF_8);
            assertTrue(out.startsWith("panic: java.lang.IllegalStateException: nobody waits for main\n\ngoroutine "
                    + id.get() + " [running]:\n"), out);
            CountDownLatch ran = new CountDownLatch(1);
            rt.go(ran::countDown);
            TestSupport.await(ran, () -> "the runtime stopped serving");
            // and a main that runs afterwards is not ended by that earlier panic
            assertNull(TestSupport.runMain(rt, () -> { }));
        } finally {
            System.setErr(old);
        }
    }

    @Test
    void secondConcurrentMainIsRefused() throws Exception {
        try (GoRuntime rt = GoRuntime.builder().maxProcs(1).name("panic-two-mains").build()) {
            CountDownLatch inMain = new CountDownLatch(1);
            CountDownLatch end = new CountDownLatch(1);
            Thread first = Thread.ofPlatform().daemon().start(() -> rt.main(() -> {
                inMain.countDown();
                try {
                    end.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }));
            TestSupport.await(inMain, () -> "first main never ran");
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> rt.main(() -> { }));
            assertTrue(e.getMessage().contains("already runs a main goroutine"), e.getMessage());
            end.countDown();
            first.join(TimeUnit.SECONDS.toMillis(TestSupport.TIMEOUT_S));
            assertFalse(first.isAlive());
        }
    }
}
