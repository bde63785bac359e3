package io.gmp4j.test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gmp4j.Go;
import io.gmp4j.chan.Chan;
import io.gmp4j.chan.Select;
import io.gmp4j.context.Cancelable;
import io.gmp4j.context.Context;
import io.gmp4j.sync.Mutex;
import io.gmp4j.sync.WaitGroup;
import io.gmp4j.time.Ticker;
import io.gmp4j.time.Time;
import io.gmp4j.time.Timer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** Synctest bubbles: the clock, durable blocking, await, membership, deadlock and panics. */
class SyncTestTest {

    @Test
    void aOneHourTimeoutExpiresAtOnceInWallTimeAndExactlyAtOneHourInBubbleTime() {
        long wall = System.nanoTime();
        AtomicReference<Duration> waited = new AtomicReference<>();
        AtomicReference<Object> err = new AtomicReference<>();
        SyncTest.run(() -> {
            Instant start = Time.now();
            assertEquals(SyncTest.EPOCH, start);
            try (Cancelable c = Context.withTimeout(Context.background(), Duration.ofHours(1))) {
                assertEquals(start.plus(Duration.ofHours(1)), c.ctx().deadline().orElseThrow());
                c.ctx().done().recv();
                waited.set(Time.since(start));
                err.set(c.ctx().err());
            }
        });
        assertEquals(Duration.ofHours(1), waited.get());
        assertSame(Context.DEADLINE_EXCEEDED, err.get());
        assertTrue(System.nanoTime() - wall < Duration.ofSeconds(20).toNanos(), "an hour of bubble time took minutes");
    }

    @Test
    void aSleepReturnsWhenEveryOtherGoroutineIsBlockedAndTheClockHasMoved() {
        // Go's package example: the goroutine's 1 s sleep ends inside main's 2 s one.
        List<String> log = new CopyOnWriteArrayList<>();
        SyncTest.run(() -> {
            Instant start = Time.now();
            Go.go(() -> {
                Time.sleep(Duration.ofSeconds(1));
                log.add("goroutine " + Time.since(start));
            });
            Time.sleep(Duration.ofSeconds(2));
            log.add("main " + Time.since(start));
        });
        assertEquals(List.of("goroutine PT1S", "main PT2S"), log);
    }

    @Test
    void timersTickersDeadlinesAndSelectTimeoutsUseTheBubbleClock() {
        List<String> log = Collections.synchronizedList(new ArrayList<>());
        SyncTest.run(() -> {
            Instant start = Time.now();
            Timer t = Time.newTimer(Duration.ofMinutes(5));
            assertEquals(start.plus(Duration.ofMinutes(5)), t.c().recv());
            log.add("timer " + Time.since(start));

            Ticker tk = Time.newTicker(Duration.ofSeconds(10));
            for (int i = 0; i < 3; i++) {
                tk.c().recv();
                log.add("tick " + Time.since(start));
            }
            tk.stop();

            Select s = new Select();
            int never = s.recv(new Chan<Integer>());
            int timeout = s.timeout(Duration.ofMinutes(30));
            int fired = s.select();
            assertNotEquals(never, fired);
            assertEquals(timeout, fired);
            log.add("select " + Time.since(start));

            Time.after(Duration.ofDays(1)).recv();
            log.add("after " + Time.since(start));

            try (Cancelable c = Context.withDeadline(Context.background(), Time.now().plusSeconds(7))) {
                c.ctx().done().recv();
            }
            log.add("deadline " + Time.since(start));

            AtomicBoolean inBubble = new AtomicBoolean();
            Chan<Boolean> ran = new Chan<>();
            Time.afterFunc(Duration.ofMillis(3), () -> {
                inBubble.set(SyncTest.inBubble());
                ran.send(true);
            });
            ran.recv();
            assertTrue(inBubble.get(), "afterFunc's goroutine belongs to the bubble");
            log.add("afterFunc " + Time.since(start));
        });
        assertEquals(List.of("timer PT5M", "tick PT5M10S", "tick PT5M20S", "tick PT5M30S", "select PT35M30S",
                "after PT24H35M30S", "deadline PT24H35M37S", "afterFunc PT24H35M37.003S"), log);
    }

    @Test
    void awaitReturnsWhenEveryOtherGoroutineIsDurablyBlocked() {
        // Go's AfterFunc example from the synctest blog post, with Context.onDone.
        SyncTest.run(() -> {
            Cancelable c = Context.withCancel(Context.background());
            AtomicBoolean called = new AtomicBoolean();
            Context.onDone(c.ctx(), () -> Go.go(() -> called.set(true)));
            Chan<Integer> in = new Chan<>();
            AtomicInteger got = new AtomicInteger();
            Go.go(() -> got.set(in.recv()));
            SyncTest.await();
            assertFalse(called.get(), "onDone ran before cancel");
            assertEquals(0, got.get());
            c.cancel();
            in.send(7);
            SyncTest.await();
            assertTrue(called.get(), "onDone's goroutine did not run before await returned");
            assertEquals(7, got.get());
            assertEquals(SyncTest.EPOCH, Time.now(), "await moved the clock");
        });
    }

    @Test
    void aWaitGroupFirstAddedToInTheBubbleIsADurableWait() {
        AtomicReference<Duration> took = new AtomicReference<>();
        SyncTest.run(() -> {
            Instant start = Time.now();
            WaitGroup wg = new WaitGroup();
            for (int i = 1; i <= 5; i++) {
                Duration d = Duration.ofSeconds(i);
                wg.go(() -> Time.sleep(d));
            }
            wg.await();
            took.set(Time.since(start));
        });
        assertEquals(Duration.ofSeconds(5), took.get());
    }

    @Test
    void aMutexIsNotADurableWaitTheClockWaitsForItsHolderOutsideTheBubble() throws Exception {
        // A platform thread outside the bubble holds the mutex; a goroutine of the bubble waits
        // for it. The bubble's main sleeps an hour: that sleep cannot end before the mutex is
        // released, because a goroutine waiting on a mutex counts as running (Go's rule). Were
        // the mutex wait durable, the clock would jump at once and "woke" would come first.
        Mutex mu = new Mutex();
        mu.lock();
        List<String> order = new CopyOnWriteArrayList<>();
        Thread holder = Thread.ofPlatform().start(() -> {
            try {
                Thread.sleep(100); // only lets the broken variant show itself; the order holds either way
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            order.add("released");
            mu.unlock();
        });
        SyncTest.run(() -> {
            Go.go(() -> {
                mu.lock();
                mu.unlock();
            });
            Time.sleep(Duration.ofHours(1));
            order.add("woke");
        });
        holder.join();
        assertEquals(List.of("released", "woke"), order);
    }

    @Test
    void aBubbleChannelUsedFromOutsideThrows() {
        AtomicReference<Chan<Integer>> leaked = new AtomicReference<>();
        AtomicReference<Timer> leakedTimer = new AtomicReference<>();
        SyncTest.run(() -> {
            leaked.set(new Chan<>(1));
            leakedTimer.set(Time.newTimer(Duration.ofSeconds(1)));
            leakedTimer.get().stop();
        });
        Chan<Integer> c = leaked.get();
        assertOutside("send on synctest channel from outside bubble", () -> c.send(1));
        assertOutside("send on synctest channel from outside bubble", () -> c.trySend(1));
        assertOutside("receive from synctest channel from outside bubble", c::recv);
        assertOutside("receive from synctest channel from outside bubble", c::tryRecv);
        assertOutside("close of synctest channel from outside bubble", c::close);
        assertOutside("select on synctest channel from outside bubble", () -> {
            Select s = new Select();
            s.recv(c);
            s.selectNow();
        });
        assertOutside("use of a synctest timer from outside bubble", () -> leakedTimer.get().reset(Duration.ofSeconds(1)));
        // And from a goroutine of no bubble.
        AtomicReference<Throwable> fromGoroutine = new AtomicReference<>();
        Chan<Void> done = new Chan<>();
        Go.go(() -> {
            try {
                c.trySend(1);
            } catch (Throwable t) {
                fromGoroutine.set(t);
            }
            done.close();
        });
        done.recv();
        assertTrue(fromGoroutine.get() instanceof IllegalStateException, String.valueOf(fromGoroutine.get()));
    }

    private static void assertOutside(String message, Runnable op) {
        IllegalStateException e = assertThrows(IllegalStateException.class, op::run);
        assertEquals(message, e.getMessage());
    }

    @Test
    void aChannelMadeOutsideIsUsableInsideButNotADurableWait() throws Exception {
        Chan<Integer> outside = new Chan<>();
        AtomicReference<Duration> at = new AtomicReference<>();
        Thread sender = Thread.ofPlatform().start(() -> {
            try {
                Thread.sleep(50); // a delay only: the assertions hold whenever the send comes
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            outside.send(5);
        });
        SyncTest.run(() -> {
            Instant start = Time.now();
            Go.go(() -> Time.sleep(Duration.ofDays(1)));
            assertEquals(5, outside.recv()); // the clock waits for this receive: not durable
            at.set(Time.since(start));
        });
        sender.join();
        assertEquals(Duration.ZERO, at.get(), "the clock moved while a goroutine waited on an outside channel");
    }

    @Test
    void goroutinesAllDurablyBlockedWithNoTimerAreADeadlockOfTheBubbleWithADump() {
        BubbleDeadlockError e = assertThrows(BubbleDeadlockError.class, () -> SyncTest.run(() -> {
            Chan<Integer> never = new Chan<>();
            Go.go(() -> never.send(1));
            new Chan<Integer>().recv();
        }));
        assertTrue(e.getMessage().startsWith(BubbleDeadlockError.MESSAGE), e.getMessage());
        assertTrue(e.dump().contains("[chan receive]"), e.dump());
        assertTrue(e.dump().contains("SyncTestTest"), e.dump());
        assertTrue(e.dump().contains("synctest bubble at 2000-01-01T00:00:00Z"), e.dump());
    }

    @Test
    void aPanicOfABubbleGoroutineIsThrownByRun() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SyncTest.run(() -> {
            Go.go(() -> {
                throw new IllegalArgumentException("boom");
            });
            Time.sleep(Duration.ofSeconds(1));
        }));
        assertEquals("boom", e.getMessage());
        assertTrue(e.getSuppressed().length > 0 && e.getSuppressed()[0].getMessage().contains("panicked in a synctest bubble"));
        AssertionError body = assertThrows(AssertionError.class, () -> SyncTest.run(() -> {
            throw new AssertionError("the body's own");
        }));
        assertEquals("the body's own", body.getMessage());
    }

    @Test
    void bubblesDoNotNestAndAwaitNeedsABubble() {
        IllegalStateException nested = assertThrows(IllegalStateException.class,
                () -> SyncTest.run(() -> SyncTest.run(() -> { })));
        assertTrue(nested.getMessage().contains("within a synctest bubble"), nested.getMessage());
        IllegalStateException outside = assertThrows(IllegalStateException.class, SyncTest::await);
        assertEquals("synctest.Wait not called from within a synctest bubble", outside.getMessage());
        assertFalse(SyncTest.inBubble());
        assertTrue(Duration.between(Time.now(), Instant.now()).abs().toSeconds() < 60, "outside, Time.now is the real clock");
    }
}
