package io.gmp4j.actor;

import io.gmp4j.runtime.Scheduler;
import io.gmp4j.NoUncaughtExceptions;
import io.gmp4j.TestSupport;
import io.gmp4j.chan.Chan;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** ActorContext.pipeFrom: channel values reach a behaviour actor as messages, in order, then the close. */
@ExtendWith(NoUncaughtExceptions.class)
class PipeFromTest {
    sealed interface Event permits Value, Closed {
    }

    record Value(int v) implements Event {
    }

    record Closed() implements Event {
    }

    @Test
    void everyValueArrivesOnceInOrderThenTheClose() throws Exception {
        int n = TestSupport.stress(100_000, 10_000);
        try (ActorSystem system = ActorSystem.builder().name("pipe").maxProcs(2).build()) {
            Chan<Integer> ch = new Chan<>(64);
            CompletableFuture<long[]> result = new CompletableFuture<>();
            system.spawn(Behavior.<Event>setup(ctx -> {
                ctx.pipeFrom(ch, Value::new, Closed::new);
                long[] seen = {0, 0, -1}; // count, sum, last
                return (c, e) -> switch (e) {
                    case Value(int v) -> {
                        assertEquals(seen[2] + 1, v, "values out of order");
                        seen[0]++;
                        seen[1] += v;
                        seen[2] = v;
                        yield Behavior.same();
                    }
                    case Closed() -> {
                        result.complete(seen.clone());
                        yield Behavior.stopped();
                    }
                };
            }));
            system.runtime().go(() -> {
                for (int i = 0; i < n; i++) {
                    ch.send(i);
                }
                ch.close();
            });
            long[] seen = result.get(TestSupport.TIMEOUT_S, TimeUnit.SECONDS);
            assertEquals(n, seen[0]);
            assertEquals((long) n * (n - 1) / 2, seen[1]);
            assertEquals(0, system.deadLetterCount());
        }
    }

    @Test
    void thePipeEndsWhenTheActorStops() throws Exception {
        try (ActorSystem system = ActorSystem.builder().name("pipe-stop").maxProcs(2).build()) {
            Chan<Integer> never = new Chan<>(); // nobody sends, nobody closes
            long before = Scheduler.of(system.runtime()).numGoroutine();
            ActorRef<Event> a = system.spawn(Behavior.<Event>setup(ctx -> {
                ctx.pipeFrom(never, Value::new, Closed::new);
                return (c, e) -> Behavior.same();
            }));
            TestSupport.awaitCondition(() -> Scheduler.of(system.runtime()).numGoroutine() == before + 1,
                    () -> "no piping goroutine: " + Scheduler.of(system.runtime()).numGoroutine());
            a.stop();
            system.whenTerminated(a).get(Duration.ofSeconds(TestSupport.TIMEOUT_S));
            TestSupport.awaitCondition(() -> Scheduler.of(system.runtime()).numGoroutine() == before,
                    () -> "the piping goroutine outlived its actor: " + Scheduler.of(system.runtime()).numGoroutine());
            assertTrue(never.trySend(1) == false, "the pipe no longer receives");
        }
    }
}
