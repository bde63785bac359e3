package io.gmp4j.test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gmp4j.chan.Chan;
import io.gmp4j.sync.WaitGroup;
import io.gmp4j.time.Ticker;
import io.gmp4j.time.Time;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A ticker-driven rate limiter (Go by Example's "rate limiting"): a test that would take seconds
 * of wall time per run takes a millisecond or so in a bubble, and gives the same result every
 * time.
 */
class RateLimiterTest {
    static final Duration PERIOD = Duration.ofMillis(200);
    static final int CLIENTS = 4;
    static final int REQUESTS_EACH = 5;

    /** One admission per tick: {@code acquire} waits for the next tick. */
    static final class Limiter {
        private final Ticker ticker;

        Limiter(Duration period) {
            ticker = Time.newTicker(period);
        }

        void acquire() {
            ticker.c().recv();
        }

        void stop() {
            ticker.stop();
        }
    }

    /** When each request was admitted, from the start, sorted. */
    static List<Duration> runOnce() {
        List<Duration> admitted = Collections.synchronizedList(new ArrayList<>());
        SyncTest.run(() -> {
            Instant start = Time.now();
            Limiter lim = new Limiter(PERIOD);
            Chan<Integer> requests = new Chan<>(CLIENTS * REQUESTS_EACH);
            for (int i = 0; i < CLIENTS * REQUESTS_EACH; i++) {
                requests.send(i);
            }
            requests.close();
            WaitGroup wg = new WaitGroup();
            for (int c = 0; c < CLIENTS; c++) {
                wg.go(() -> {
                    for (Integer ignored : requests) {
                        lim.acquire();
                        admitted.add(Time.since(start));
                    }
                });
            }
            wg.await();
            lim.stop();
        });
        List<Duration> sorted = new ArrayList<>(admitted);
        Collections.sort(sorted);
        return sorted;
    }

    @Test
    void aThousandRunsInMillisecondsWithTheSameResult() {
        List<Duration> expected = new ArrayList<>();
        for (int k = 1; k <= CLIENTS * REQUESTS_EACH; k++) {
            expected.add(PERIOD.multipliedBy(k));
        }
        long wall = System.nanoTime();
        int runs = 1000;
        for (int i = 0; i < runs; i++) {
            assertEquals(expected, runOnce(), "run " + i);
        }
        long ms = (System.nanoTime() - wall) / 1_000_000;
        // Each run is 4 s of the bubble's time: 1000 of them in wall time would be 66 minutes.
        System.out.println("RateLimiterTest: " + runs + " runs (" + runs * 4 + " s of bubble time) in " + ms + " ms");
        assertTrue(ms < 120_000, "1000 bubble runs took " + ms + " ms");
    }
}
