package io.gmp4j;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicIntegerArray;

import static org.junit.jupiter.api.Assertions.*;

/** An idle P steals half of a busy P's local run queue (Go's runqsteal). */
@ExtendWith(NoUncaughtExceptions.class)
class WorkStealingTest {
    @Test
    void idlePStealsWorkSpawnedByOneGoroutine() {
        int rounds = 100;
        int perRound = 100; // < 256: a round never overflows, so the other P can only steal
        int n = rounds * perRound;
        try (GoRuntime rt = GoRuntime.builder().maxProcs(2).name("work-stealing").build()) {
            AtomicIntegerArray runs = new AtomicIntegerArray(n);
            TestSupport.runInGoroutine(rt, () -> {
                for (int r = 0; r < rounds; r++) {
                    CountDownLatch round = new CountDownLatch(perRound);
                    for (int j = 0; j < perRound; j++) {
                        int id = r * perRound + j;
                        Go.go(() -> {
                            TestSupport.burn(50_000); // ~50 us of CPU
                            runs.incrementAndGet(id);
                            round.countDown();
                        });
                    }
                    round.await(); // parks the goroutine: its P runs the round
                }
            });
            for (int i = 0; i < n; i++) {
                assertEquals(1, runs.get(i), "goroutine " + i);
            }
            SchedStats s = rt.stats();
            System.out.println("work stealing: " + s);
            assertTrue(s.steals() > 0, () -> "no steal: " + s);
            assertTrue(s.stolen() >= s.steals(), () -> "a steal moves at least one task: " + s);
            assertTrue(s.tasksRun()[0] > 0 && s.tasksRun()[1] > 0, () -> "both Ps must run tasks: " + s);
        }
    }
}
