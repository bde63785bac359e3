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
 * counts pending timers as pending work. On the real clock timing is only ever asserted as a
 * lower bound; the tests of what fires when run in a synctest bubble ({@link Bubbles}), whose
 * clock makes them exact.
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
            Bubbles.run(rt, () -> {
                Instant start = Time.now();
                Timer early = Time.newTimer(Duration.ofMillis(5));
                assertTrue(early.stop(), "stopping a pending timer reports it");
                assertFalse(early.stop(), "a second stop finds nothing pending");
                Timer later = Time.newTimer(Duration.ofMillis(30));
                Select s = new Select();
                int a = s.recv(early.c());
                int b = s.recv(later.c());
                assertEquals(b, s.select(), "the later timer fires; the stopped one never does");
                assertEquals(Duration.ofMillis(30), Time.since(start));
                assertEquals(start.plusMillis(30), s.value(), "the time it fired at");
                assertNull(early.c().tryRecv());
                assertEquals(a == 0 ? 1 : 0, b);
            });
        }
    }

    /** Go 1.23: after Stop or Reset returns, no value of an earlier arming can be received. */
    @Test
    void stopAndResetDiscardAValueNobodyReceived() {
        try (GoRuntime rt = GoRuntime.builder().maxProcs(2).name("time-stale").build()) {
            Bubbles.run(rt, () -> {
                Timer t = Time.newTimer(Duration.ofMillis(1));
                RecvChan<Instant> c = t.c();
                Time.sleep(Duration.ofMillis(1)); // the timer fires first: it was armed first
                assertEquals(1, c.len(), "fired, nobody received");
                assertFalse(t.stop(), "already fired");
                assertNull(c.tryRecv(), "the undelivered value went with the stop");

                Timer u = Time.newTimer(Duration.ofMillis(1));
                Time.sleep(Duration.ofMillis(1));
                assertEquals(1, u.c().len(), "fired, nobody received");
                assertFalse(u.reset(LONG), "it had fired");
                assertNull(u.c().tryRecv(), "reset discarded the stale value");
                assertTrue(u.reset(Duration.ofMillis(2)), "the long arming was pending");
                Instant armed = Time.now();
                assertEquals(armed.plusMillis(2), u.c().recv(), "the new arming fires, on time");
            });
        }
    }

    @Test
    void tickerTicksInOrderAndStops() {
        try (GoRuntime rt = GoRuntime.builder().maxProcs(2).name("time-ticker").build()) {
            Bubbles.run(rt, () -> {
                Instant start = Time.now();
                Ticker tk = Time.newTicker(Duration.ofMillis(2));
                for (int i = 1; i <= 5; i++) {
                    assertEquals(start.plusMillis(2L * i), tk.c().recv(), "tick " + i);
                }
                tk.stop();
                assertNull(tk.c().tryRecv(), "no tick after stop");
                // A one-shot timer armed after the stop fires; the stopped ticker, due far
                // earlier, must not have sent anything in between.
                assertEquals(start.plusMillis(30), Time.after(Duration.ofMillis(20)).recv());
                assertNull(tk.c().tryRecv(), "a stopped ticker stays silent");
                tk.reset(Duration.ofMillis(1));
                assertEquals(start.plusMillis(31), tk.c().recv(), "reset restarts it, a period from now");
                tk.stop();
            });
        }
    }

    @Test
    void slowReceiverGetsOneWaitingTickNotABurst() {
        try (GoRuntime rt = GoRuntime.builder().maxProcs(1).name("time-slow").build()) {
            Bubbles.run(rt, () -> {
                Instant start = Time.now();
                Ticker tk = Time.newTicker(Duration.ofMillis(1));
                Time.sleep(Duration.ofMillis(30).plusNanos(500_000)); // 30 periods pass unreceived
                assertEquals(1, tk.c().len(), "ticks were dropped, one waits");
                assertEquals(start.plusMillis(1), tk.c().tryRecv().value(), "the first tick waited");
                assertNull(tk.c().tryRecv(), "no backlog behind it");
                assertEquals(start.plusMillis(31), tk.c().recv(), "the schedule skipped what it missed");
                tk.stop();
            });
        }
        assertThrows(IllegalArgumentException.class, () -> Time.newTicker(Duration.ZERO));
    }

    /**
     * Go's ticker channel holds one tick: a receiver three periods behind gets the first tick
     * after its previous receive, the two after it are dropped, and the ticker's schedule (and
     * the bubble's clock, which another goroutine's sleeps read meanwhile) goes on exactly. Then
     * an hour nobody receives: one tick waits, no backlog, and the next comes on the period.
     */
    @Test
    void aFullTickerChannelDropsTicksAndTheClockStillAdvancesExactly() {
        try (GoRuntime rt = GoRuntime.builder().maxProcs(2).name("time-full-ticker").build()) {
            Bubbles.run(rt, () -> {
                Instant start = Time.now();
                Duration period = Duration.ofSeconds(1);
                int receives = 100;
                Chan<Integer> sleeperWoke = new Chan<>(1);
                rt.go(() -> { // sleeps ending between ticks and on them, read on the same clock
                    int n = 0;
                    for (Duration at = Duration.ofMillis(1_700); at.getSeconds() < 3 * receives; at = at.plusMillis(1_700)) {
                        Time.sleep(at.minus(Time.since(start)));
                        assertEquals(at, Time.since(start), "the sleeper woke on time");
                        n++;
                    }
                    sleeperWoke.send(n);
                });
                Ticker tk = Time.newTicker(period);
                Duration lastReceive = Duration.ZERO;
                for (int i = 1; i <= receives; i++) {
                    Duration at = Duration.ofMillis(3_000L * i - 500); // 2.5 s, 5.5 s, ...: never on a tick
                    Time.sleep(at.minus(Time.since(start)));
                    assertEquals(1, tk.c().len(), "one tick waits, the later ones were dropped");
                    Instant got = tk.c().recv();
                    assertEquals(at, Time.since(start), "a waiting tick is received at once");
                    long firstAfter = lastReceive.getSeconds() + 1; // the first tick after the last receive
                    assertEquals(start.plusSeconds(firstAfter), got, "receive " + i);
                    assertEquals(0, tk.c().len(), "no backlog behind it");
                    lastReceive = at;
                }
                // 3 * receives - 1 ticks fired by now, one received per 3 s: 2 * receives - 1 dropped.
                assertEquals(3L * receives - 1, Time.since(start).getSeconds());
                assertEquals(176, sleeperWoke.recv(), "wakes every 1.7 s below 300 s, each on time");

                Duration stall = Duration.ofHours(1);
                Duration stalledFrom = Time.since(start);
                Time.sleep(stall); // 3600 ticks into a full channel
                assertEquals(stalledFrom.plus(stall), Time.since(start));
                assertEquals(start.plusSeconds(stalledFrom.getSeconds() + 1), tk.c().tryRecv().value(),
                        "the tick that waited is the first after the last receive");
                assertNull(tk.c().tryRecv(), "nothing queued behind it");
                Duration next = Duration.ofSeconds(Time.since(start).getSeconds() + 1);
                for (int k = 0; k < 5; k++) { // a receiver that keeps up gets every tick, on the period
                    assertEquals(start.plus(next), tk.c().recv());
                    assertEquals(next, Time.since(start));
                    next = next.plus(period);
                }
                tk.stop();
            });
        }
    }

    @Test
    void afterFuncRunsInAGoroutineUnlessStopped() {
        try (GoRuntime rt = GoRuntime.builder().maxProcs(2).name("time-afterfunc").build()) {
            Bubbles.run(rt, () -> {
                Instant start = Time.now();
                Chan<Boolean> ran = new Chan<>(1);
                Timer t = Time.afterFunc(Duration.ofMillis(2), () -> ran.send(Thread.currentThread().isVirtual()));
                assertTrue(ran.recv(), "ran in a goroutine");
                assertEquals(Duration.ofMillis(2), Time.since(start));
                assertFalse(t.stop(), "it had fired");

                AtomicInteger cancelled = new AtomicInteger();
                Timer u = Time.afterFunc(Duration.ofMillis(5), cancelled::incrementAndGet);
                assertTrue(u.stop());
                Time.after(Duration.ofMillis(25)).recv();
                Bubbles.await();
                assertEquals(0, cancelled.get(), "a stopped afterFunc never runs");
            });
        }
    }

    @Test
    void selectWithTimeAfterCase() {
        try (GoRuntime rt = GoRuntime.builder().maxProcs(1).name("time-select").build()) {
            Bubbles.run(rt, () -> {
                Instant start = Time.now();
                Chan<Integer> never = new Chan<>();
                Select s = new Select();
                s.recv(never);
                int t = s.recv(Time.after(Duration.ofMillis(3)));
                assertEquals(t, s.select());
                assertTrue(s.ok());
                assertEquals(start.plusMillis(3), s.value());
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
