package io.gmp4j.actor;

import io.gmp4j.NoUncaughtExceptions;
import io.gmp4j.TestSupport;
import io.gmp4j.actor.CounterActor.Get;
import io.gmp4j.actor.CounterActor.Inc;
import io.gmp4j.actor.CounterActor.Msg;
import io.gmp4j.chan.Chan;
import io.gmp4j.chan.Select;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static io.gmp4j.actor.CounterActor.counter;
import static org.junit.jupiter.api.Assertions.*;

/** ask: answer, timeout, dead target; from threads, goroutines, select and behaviour actors. */
@ExtendWith(NoUncaughtExceptions.class)
class AskTest {
    private static final Duration LONG = Duration.ofSeconds(TestSupport.TIMEOUT_S);

    @Test
    void askIsAnsweredFromAPlatformThreadAndAGoroutine() {
        try (ActorSystem system = ActorSystem.builder().name("ask-answer").maxProcs(2).build()) {
            ActorRef<Msg> c = system.spawn(counter(0));
            for (int i = 0; i < 5; i++) {
                c.tell(new Inc());
            }
            assertEquals(5, c.<Integer>ask(Get::new, LONG).get());
            TestSupport.runInGoroutine(system.runtime(), () -> {
                c.tell(new Inc());
                assertEquals(6, c.<Integer>ask(Get::new, LONG).get());
            });
            assertEquals(0, system.deadLetterCount());
        }
    }

    @Test
    void askTimesOutWhenNobodyAnswersAndALateAnswerIsADeadLetter() {
        try (ActorSystem system = ActorSystem.builder().name("ask-timeout").maxProcs(2).build()) {
            AtomicReference<ActorRef<Integer>> kept = new AtomicReference<>();
            ActorRef<Get> silent = system.spawn((ctx, g) -> {
                kept.set(g.replyTo());
                return Behavior.same();
            });
            Reply<Integer> r = silent.ask(Get::new, Duration.ofMillis(30));
            AskTimeoutException e = assertThrows(AskTimeoutException.class, r::get);
            assertTrue(e.getMessage().contains("timed out"), e.getMessage());
            assertInstanceOf(AskTimeoutException.class, r.failure());
            TestSupport.awaitCondition(() -> kept.get() != null, () -> "the actor never got the ask");
            assertFalse(kept.get().isAlive());
            kept.get().tell(42); // too late
            assertEquals(1, system.deadLetterCount());
        }
    }

    @Test
    void askOfAStoppedActorFailsAtOnceAndOfAStoppingOneWhenItStops() {
        try (ActorSystem system = ActorSystem.builder().name("ask-dead").maxProcs(2).build()) {
            ActorRef<Get> a = system.spawn((ctx, g) -> Behavior.stopped());
            a.tell(new Get(system.spawn((ctx, x) -> Behavior.same()))); // stops it
            system.whenTerminated(a).get(LONG);
            Reply<Integer> r = a.ask(Get::new, LONG);
            assertTrue(r.isDone());
            assertThrows(ActorStoppedException.class, r::get);
            assertEquals(1, system.deadLetterCount(), "the ask's message");

            // The target fails on the ask's message itself: the ask fails with the reason.
            ActorRef<Get> crasher = system.spawn((ctx, g) -> {
                throw new IllegalStateException("boom");
            });
            Reply<Integer> r2 = crasher.ask(Get::new, LONG);
            ActorStoppedException e = assertThrows(ActorStoppedException.class, r2::get);
            assertEquals("boom", e.getCause().getMessage());
            assertEquals(1, system.failureCount());
        }
    }

    @Test
    void askWaitsInASelectNextToAChannel() {
        try (ActorSystem system = ActorSystem.builder().name("ask-select").maxProcs(2).build()) {
            ActorRef<Msg> c = system.spawn(counter(7));
            TestSupport.runInGoroutine(system.runtime(), () -> {
                Chan<String> quit = new Chan<>();
                Reply<Integer> r = c.ask(Get::new, LONG);
                Select s = new Select();
                int answer = s.recv(r.channel());
                s.recv(quit);
                assertEquals(answer, s.select());
                assertTrue(s.ok());
                assertEquals(7, (Integer) s.value());

                // A failed ask closes its channel without a value.
                ActorRef<Get> silent = system.spawn((ctx, g) -> Behavior.same());
                Reply<Integer> t = silent.ask(Get::new, Duration.ofMillis(20));
                s.reset();
                int timedOut = s.recv(t.channel());
                assertEquals(timedOut, s.select());
                assertFalse(s.ok());
                assertInstanceOf(AskTimeoutException.class, t.failure());
            });
        }
    }

    @Test
    void aBehaviourActorAsksWithPipeToAndCannotBlockOnGet() throws Exception {
        try (ActorSystem system = ActorSystem.builder().name("ask-pipe").maxProcs(1).build()) {
            ActorRef<Msg> c = system.spawn(counter(3));
            CountDownLatch done = new CountDownLatch(1);
            AtomicReference<Object> got = new AtomicReference<>();
            AtomicReference<Throwable> getFailure = new AtomicReference<>();
            system.spawn(Behavior.<Object>setup(ctx -> {
                Reply<Integer> r = c.ask(Get::new, LONG);
                try {
                    r.get();
                } catch (IllegalStateException e) {
                    getFailure.set(e);
                }
                r.pipeTo(ctx.self(), v -> "answer " + v, f -> "failed " + f);
                return (cx, msg) -> {
                    got.set(msg);
                    done.countDown();
                    return Behavior.stopped();
                };
            }));
            TestSupport.await(done, () -> "no piped answer");
            assertEquals("answer 3", got.get());
            assertNotNull(getFailure.get(), "get() in a behaviour actor must refuse to block its M");

            // toCompletableFuture for code outside gmp4j
            assertEquals(3, c.<Integer>ask(Get::new, LONG).toCompletableFuture().get(TestSupport.TIMEOUT_S, TimeUnit.SECONDS));
            ActorRef<Get> silent = system.spawn((ctx, g) -> Behavior.same());
            ExecutionException e = assertThrows(ExecutionException.class,
                    () -> silent.<Integer>ask(Get::new, Duration.ofMillis(10)).toCompletableFuture().get(TestSupport.TIMEOUT_S, TimeUnit.SECONDS));
            assertInstanceOf(AskTimeoutException.class, e.getCause());
        }
    }
}
