package io.gmp4j.examples.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.gmp4j.GoRuntime;
import io.gmp4j.chan.Chan;
import io.gmp4j.runtime.Bubble;
import io.gmp4j.sync.WaitGroup;
import io.gmp4j.time.Time;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The proxy's idle watchdog on a synctest bubble's clock: it fires exactly one idle timeout after
 * the last activity, re-arming for the time left, and never after a stop, in milliseconds of wall
 * time. (ProxyServerTest covers it end to end on real sockets, whose reads are not durable waits,
 * so that one runs on the real clock.) The bubble runs on the runtime's SPI: gmp4j-test's
 * {@code SyncTest.run} is the same, once this module takes gmp4j-test in test scope.
 */
class IdleWatchdogTest {
    static final Duration IDLE = Duration.ofSeconds(1);
    static GoRuntime rt;

    @BeforeAll
    static void start() {
        rt = GoRuntime.builder().maxProcs(2).name("watchdog").build();
    }

    @AfterAll
    static void stop() {
        rt.close();
    }

    /** Fired at, from the bubble's start. */
    static List<Duration> fired(Duration... touchesAt) {
        List<Duration> fired = new CopyOnWriteArrayList<>();
        inBubble(() -> {
            Instant start = Time.now();
            Chan<Boolean> idle = new Chan<>(8);
            IdleWatchdog w = new IdleWatchdog(IDLE, () -> {
                fired.add(Time.since(start));
                idle.trySend(true);
            });
            w.start();
            for (Duration at : touchesAt) {
                Time.sleep(at.minus(Time.since(start)));
                w.touch();
            }
            idle.recv();
            Time.sleep(IDLE.multipliedBy(10)); // a second firing would come in here
            w.stop();
        });
        return fired;
    }

    @Test
    void aQuietSessionIsIdleExactlyOneTimeoutAfterItsStart() {
        assertEquals(List.of(IDLE), fired());
    }

    @Test
    void eachTouchPushesTheFiringToOneTimeoutAfterIt() {
        assertEquals(List.of(Duration.ofMillis(3_200)),
                fired(Duration.ofMillis(500), Duration.ofMillis(1_200), Duration.ofMillis(2_199), Duration.ofMillis(2_200)));
    }

    @Test
    void trafficBothWaysKeepsItQuietAndAStopSilencesIt() {
        List<Duration> fired = new CopyOnWriteArrayList<>();
        inBubble(() -> {
            Instant start = Time.now();
            IdleWatchdog w = new IdleWatchdog(IDLE, () -> fired.add(Time.since(start)));
            w.start();
            WaitGroup wg = new WaitGroup();
            for (int dir = 0; dir < 2; dir++) {
                Duration gap = Duration.ofMillis(dir == 0 ? 700 : 300);
                wg.go(() -> {
                    for (int i = 0; i < 30; i++) { // 21 s and 9 s of bytes, one way after the other
                        Time.sleep(gap);
                        w.touch();
                    }
                });
            }
            wg.await();
            assertEquals(List.of(), fired, "a chunk every 700 ms one way kept it busy");
            Time.sleep(IDLE.minusMillis(1));
            w.stop();
            Time.sleep(IDLE.multipliedBy(5));
        });
        assertEquals(List.of(), fired);
        assertThrows(IllegalArgumentException.class, () -> new IdleWatchdog(Duration.ZERO, () -> { }));
    }

    /** Runs {@code body} in a synctest bubble on {@link #rt} and returns when it has ended. */
    static void inBubble(Runnable body) {
        AtomicReference<Throwable> failed = new AtomicReference<>();
        Bubble b = Bubble.start(rt.scheduler(), () -> {
            try {
                body.run();
            } catch (Throwable t) {
                failed.set(t);
            }
        });
        String deadlock = b.awaitEnd();
        Throwable t = failed.get() != null ? failed.get() : b.panic();
        if (t instanceof Error e) {
            throw e;
        }
        if (t != null) {
            throw new AssertionError(t);
        }
        if (deadlock != null) {
            throw new AssertionError("deadlock: all goroutines in bubble are blocked\n" + deadlock);
        }
    }
}
