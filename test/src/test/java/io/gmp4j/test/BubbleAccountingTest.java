package io.gmp4j.test;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gmp4j.GoRuntime;
import io.gmp4j.chan.Chan;
import io.gmp4j.sync.WaitGroup;
import io.gmp4j.time.Time;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The durable-block accounting under a race: many goroutines on four Ps sleep, wake each other
 * over the bubble's channels and sleep again. The clock may move only while every one of them
 * is durably blocked, so every sleep of 1 ms ends exactly 1 ms of bubble time after it began,
 * whoever woke whom on which P in between: a clock that moved while one was runnable (a ready
 * not yet counted, a park counted too early) shows as a round that ends late.
 */
class BubbleAccountingTest {
    static final int PAIRS = 8;
    static final int ROUNDS = 150;

    @Test
    void everyRoundEndsExactlyOnTimeUnderContention() {
        int rounds = "short".equals(System.getProperty("gmp4j.stress")) ? ROUNDS / 3 : ROUNDS;
        try (GoRuntime rt = GoRuntime.builder().maxProcs(4).name("accounting").build()) {
            rt.main(() -> {
                for (int run = 0; run < 5; run++) {
                    List<String> late = new ArrayList<>();
                    AtomicInteger exchanges = new AtomicInteger();
                    SyncTest.run(() -> {
                        Instant start = Time.now();
                        WaitGroup wg = new WaitGroup();
                        for (int p = 0; p < PAIRS; p++) {
                            Chan<Integer> ping = new Chan<>();
                            Chan<Integer> pong = new Chan<>();
                            wg.go(() -> {
                                for (int r = 1; r <= rounds; r++) {
                                    Time.sleep(Duration.ofMillis(1));
                                    ping.send(r);
                                    int back = pong.recv();
                                    exchanges.incrementAndGet();
                                    Duration at = Time.since(start);
                                    if (back != r || !at.equals(Duration.ofMillis(r))) {
                                        synchronized (late) {
                                            late.add("round " + r + " at " + at);
                                        }
                                    }
                                }
                            });
                            wg.go(() -> {
                                for (int r = 1; r <= rounds; r++) {
                                    pong.send(ping.recv());
                                }
                            });
                        }
                        wg.await();
                        assertEquals(Duration.ofMillis(rounds), Time.since(start));
                    });
                    assertEquals(List.of(), late, "run " + run);
                    assertEquals(PAIRS * rounds, exchanges.get());
                }
            });
        }
    }
}
