package io.gmp4j.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.gmp4j.chan.Chan;
import io.gmp4j.sync.WaitGroup;
import io.gmp4j.test.SyncTest;
import io.gmp4j.time.Time;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The idle watchdog of the proxy's sessions and the chat's clients on a synctest bubble's
 * clock: it fires exactly one idle timeout after the last activity, re-arming for the time
 * left, and never after a stop, in milliseconds of wall time. (ChatIdleTest drives the chat's
 * use of it on a bubble too; ProxyServerTest and the chat's socket tests cover it end to end on
 * real sockets, whose reads are not durable waits, so those run on the real clock.)
 */
class IdleWatchdogTest {
    static final Duration IDLE = Duration.ofSeconds(1);

    /** Fired at, from the bubble's start. */
    static List<Duration> fired(Duration... touchesAt) {
        List<Duration> fired = new CopyOnWriteArrayList<>();
        SyncTest.run(() -> {
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
        SyncTest.run(() -> {
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
}
