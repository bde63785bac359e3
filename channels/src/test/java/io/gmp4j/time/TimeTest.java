package io.gmp4j.time;

import io.gmp4j.DeadlockError;
import io.gmp4j.GoRuntime;
import io.gmp4j.NoUncaughtExceptions;
import io.gmp4j.TestSupport;
import io.gmp4j.chan.Chan;
import io.gmp4j.chan.RecvChan;
import io.gmp4j.chan.Select;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Go's time package on the runtime's timers: sleep, after, Timer and Ticker with Go 1.23's
 * stop/reset guarantee (no stale value afterwards), afterFunc, and deadlock detection that
 * counts pending timers as pending work. Timing is only ever asserted as a lower bound.
 */
@ExtendWith(NoUncaughtExceptions.class)
class TimeTest {
    private static final Duration LONG = Duration.ofSeconds(TestSupport.TIMEOUT_S);

    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void sleepAndAfterWaitAtLeastTheirDuration(int procs) {
        try (GoRuntime rt = GoRuntime.builder().maxProcs(procs).name("time-sleep").build()) {
            TestSupport.runInGoroutine(rt, () -> {
                long t0 = System.nanoTime();
                Time.sleep(Duration.ofMillis(20));
                assertTrue(System.nanoTime() - t0 >= TimeUnit.MILLISECONDS.toNanos(20));
                long t1 = System.nanoTime();
                Instant fired = Time.after(Duration.ofMillis(15)).recv();
                assertNotNull(fired);
                assertTrue(System.nanoTime() - t1 >= TimeUnit.MILLISECONDS.toNanos(15));
                Time.sleep(Duration.ZERO); // returns at once
                Time.sleep(Duration.ofMillis(-5));
            });
        }
    }

    @Test
    void manySleepersAllWakeExactlyOnce() {
        int n = TestSupport.stress(10_000, 2_000);
        try (GoRuntime rt = GoRuntime.builder().maxProcs(2).name("time-many").build()) {
            AtomicInteger woke = new AtomicInteger();
            CountDownLatch done = new CountDownLatch(n);
            for (int i = 0; i < n; i++) {
                int ms = i % 17;
                rt.go(() -> {
                    Time.sleep(Duration.ofMillis(ms));
                    woke.incrementAndGet();
                    done.countDown();
                });
            }
            TestSupport.await(done, () -> woke + " of " + n + " woke; " + rt.stats());
            assertEquals(n, woke.get());
        }
    }

    @Test
    void platformThreadsUseTheDefaultRuntimesTimers() {
        long t0 = System.nanoTime();
        Time.sleep(Duration.ofMillis(10));
        assertTrue(System.nanoTime() - t0 >= TimeUnit.MILLISECONDS.toNanos(10));
        assertNotNull(Time.after(Duration.ofMillis(5)).recv());
    }

    @Test
    void stoppedTimerNeverDelivers() {
        try (GoRuntime rt = GoRuntime.builder().maxProcs(1).name("time-stop").build()) {
            TestSupport.runInGoroutine(rt, () -> {
                Timer early = Time.newTimer(Duration.ofMillis(5));
                assertTrue(early.stop(), "stopping a pending timer reports it");
                assertFalse(early.stop(), "a second stop finds nothing pending");
                Timer later = Time.newTimer(Duration.ofMillis(30));
                Select s = new Select();
                int a = s.recv(early.c());
                int b = s.recv(later.c());
                assertEquals(b, s.select(), "the later timer fires; the stopped one never does");
                assertNull(early.c().tryRecv());
                assertEquals(a == 0 ? 1 : 0, b);
            });
        }
    }

    /** Go 1.23: after Stop or Reset returns, no value of an earlier arming can be received. */
    @Test
    void stopAndResetDiscardAValueNobodyReceived() {
        try (GoRuntime rt = GoRuntime.builder().maxProcs(2).name("time-stale").build()) {
            TestSupport.runInGoroutine(rt, () -> {
                Timer t = Time.newTimer(Duration.ofMillis(1));
                RecvChan<Instant> c = t.c();
                TestSupport.awaitCondition(() -> c.len() == 1, () -> "timer never fired");
                assertFalse(t.stop(), "already fired");
                assertNull(c.tryRecv(), "the undelivered value went with the stop");

                Timer u = Time.newTimer(Duration.ofMillis(1));
                TestSupport.awaitCondition(() -> u.c().len() == 1, () -> "timer never fired");
                assertFalse(u.reset(LONG), "it had fired");
                assertNull(u.c().tryRecv(), "reset discarded the stale value");
                assertTrue(u.reset(Duration.ofMillis(2)), "the long arming was pending");
                Instant v = u.c().recv();
                assertNotNull(v, "the new arming fires");
            });
        }
    }

    @Test
    void tickerTicksInOrderAndStops() {
        try (GoRuntime rt = GoRuntime.builder().maxProcs(2).name("time-ticker").build()) {
            TestSupport.runInGoroutine(rt, () -> {
                long t0 = System.nanoTime(); // before the ticker: its ticks count from its creation
                Ticker tk = Time.newTicker(Duration.ofMillis(2));
                Instant prev = Instant.MIN;
                for (int i = 0; i < 5; i++) {
                    Instant now = tk.c().recv();
                    assertTrue(now.isAfter(prev) || now.equals(prev));
                    prev = now;
                }
                assertTrue(System.nanoTime() - t0 >= TimeUnit.MILLISECONDS.toNanos(10), "5 ticks of 2 ms");
                tk.stop();
                assertNull(tk.c().tryRecv(), "no tick after stop");
                // A one-shot timer armed after the stop fires; the stopped ticker, due far
                // earlier, must not have sent anything in between.
                Instant after = Time.after(Duration.ofMillis(20)).recv();
                assertNotNull(after);
                assertNull(tk.c().tryRecv(), "a stopped ticker stays silent");
                tk.reset(Duration.ofMillis(1));
                assertNotNull(tk.c().recv(), "reset restarts it");
                tk.stop();
            });
        }
    }

    @Test
    void slowReceiverGetsOneWaitingTickNotABurst() {
        try (GoRuntime rt = GoRuntime.builder().maxProcs(1).name("time-slow").build()) {
            TestSupport.runInGoroutine(rt, () -> {
                Ticker tk = Time.newTicker(Duration.ofMillis(1));
                Time.sleep(Duration.ofMillis(30)); // ~30 periods pass unreceived
                assertEquals(1, tk.c().len(), "ticks were dropped, one waits");
                assertNotNull(tk.c().tryRecv());
                assertNull(tk.c().tryRecv(), "no backlog behind it");
                tk.stop();
            });
        }
        assertThrows(IllegalArgumentException.class, () -> Time.newTicker(Duration.ZERO));
    }

    @Test
    void afterFuncRunsInAGoroutineUnlessStopped() {
        try (GoRuntime rt = GoRuntime.builder().maxProcs(2).name("time-afterfunc").build()) {
            TestSupport.runInGoroutine(rt, () -> {
                Chan<Boolean> ran = new Chan<>(1);
                Timer t = Time.afterFunc(Duration.ofMillis(2), () -> ran.send(Thread.currentThread().isVirtual()));
                assertTrue(ran.recv(), "ran in a goroutine");
                assertFalse(t.stop(), "it had fired");

                AtomicInteger cancelled = new AtomicInteger();
                Timer u = Time.afterFunc(Duration.ofMillis(5), cancelled::incrementAndGet);
                assertTrue(u.stop());
                Time.after(Duration.ofMillis(25)).recv();
                assertEquals(0, cancelled.get(), "a stopped afterFunc never runs");
            });
        }
    }

    @Test
    void selectWithTimeAfterCase() {
        try (GoRuntime rt = GoRuntime.builder().maxProcs(1).name("time-select").build()) {
            TestSupport.runInGoroutine(rt, () -> {
                Chan<Integer> never = new Chan<>();
                Select s = new Select();
                s.recv(never);
                int t = s.recv(Time.after(Duration.ofMillis(3)));
                assertEquals(t, s.select());
                assertTrue(s.ok());
                assertInstanceOf(Instant.class, s.value());
            });
        }
    }

    /** A sleeping main is waiting for a timer, not deadlocked; one that waits on nothing is. */
    @Test
    void pendingTimersAreNotADeadlockButAnUnreachableReceiveIs() throws Exception {
        try (GoRuntime rt = GoRuntime.builder().maxProcs(2).name("time-deadlock").build()) {
            assertNull(TestSupport.runMain(rt, () -> {
                Time.sleep(Duration.ofMillis(20));
                Time.after(Duration.ofMillis(10)).recv();
            }));
            Throwable t = TestSupport.runMain(rt, () -> new Chan<Integer>().recv());
            DeadlockError e = assertInstanceOf(DeadlockError.class, t);
            assertTrue(e.getMessage().contains("[chan receive"), e.getMessage());
        }
    }

}
