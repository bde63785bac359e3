package io.gmp4j.actor;

import io.gmp4j.NoUncaughtExceptions;
import io.gmp4j.TestSupport;
import java.time.Duration;
import java.util.concurrent.atomic.LongAdder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.junit.jupiter.api.Assertions.*;

/** A million actors (100,000 in short mode) spawned, messaged once, stopped. */
@ExtendWith(NoUncaughtExceptions.class)
class MillionActorsTest {
    @Test
    void spawnMessageAndStopAMillionActors() {
        int n = TestSupport.stress(1_000_000, 100_000);
        int spawners = 4;
        try (ActorSystem system = ActorSystem.builder().name("million").maxProcs(2).build()) {
            LongAdder handled = new LongAdder();
            Behavior<Integer> once = (ctx, m) -> {
                handled.increment();
                return Behavior.stopped();
            };
            long t0 = System.nanoTime();
            // Goroutines spawn and tell; every tell schedules an idle actor on the spawner's P.
            io.gmp4j.sync.WaitGroup wg = new io.gmp4j.sync.WaitGroup();
            wg.add(spawners);
            for (int s = 0; s < spawners; s++) {
                int from = s;
                system.runtime().go(() -> {
                    for (int i = from; i < n; i += spawners) {
                        system.spawn(once).tell(i);
                    }
                    wg.done();
                });
            }
            wg.await();
            TestSupport.awaitCondition(() -> system.liveActors() == 0,
                    () -> system.liveActors() + " still alive, " + handled.sum() + " handled; " + system.runtime().stats());
            long ms = (System.nanoTime() - t0) / 1_000_000;
            System.out.println(n + " actors spawned, messaged once and stopped in " + ms + " ms; "
                    + system.runtime().stats());
            assertEquals(n, handled.sum());
            assertEquals(0, system.deadLetterCount());
            assertTrue(system.shutdown(Duration.ofSeconds(TestSupport.TIMEOUT_S)));
        }
    }

    @Test
    void aHundredThousandIdleActorsAreCheap() {
        int n = TestSupport.stress(100_000, 20_000);
        try (ActorSystem system = ActorSystem.builder().name("idle-actors").maxProcs(1).build()) {
            Runtime rt = Runtime.getRuntime();
            System.gc();
            long before = rt.totalMemory() - rt.freeMemory();
            ActorRef<?>[] refs = new ActorRef<?>[n];
            for (int i = 0; i < n; i++) {
                refs[i] = system.spawn((ctx, m) -> Behavior.same());
            }
            System.gc();
            long after = rt.totalMemory() - rt.freeMemory();
            long perActor = (after - before) / n;
            System.out.println(n + " idle actors: about " + perActor + " bytes each");
            assertEquals(n, system.liveActors());
            assertTrue(system.shutdown(Duration.ofSeconds(TestSupport.TIMEOUT_S)));
            assertEquals(0, system.liveActors());
            assertFalse(refs[n - 1].isAlive());
        }
    }
}
