package io.gmp4j.actor;

import io.gmp4j.GoRuntime;
import io.gmp4j.NoUncaughtExceptions;
import io.gmp4j.TestSupport;
import io.gmp4j.chan.Chan;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.junit.jupiter.api.Assertions.*;

/**
 * An actor's failure belongs to supervision, not to Go's panic: a behaviour actor, a process
 * actor (a goroutine), a pipeFrom goroutine and a supervised child that throw, on a runtime
 * whose main goroutine runs, end neither main nor the process.
 */
@ExtendWith(NoUncaughtExceptions.class)
class FailureIsNotAPanicTest {
    private static final Duration LONG = Duration.ofSeconds(TestSupport.TIMEOUT_S);

    record Ping(ActorRef<String> replyTo) {
    }

    @Test
    void actorFailuresUnderRtMainAreSupervisedNotPanics() throws Exception {
        try (GoRuntime rt = GoRuntime.builder().maxProcs(2).name("actor-failures").build()) {
            List<Terminated> failures = new CopyOnWriteArrayList<>();
            AtomicReference<Throwable> inMain = new AtomicReference<>();
            AtomicInteger starts = new AtomicInteger();
            Throwable t = TestSupport.runMain(rt, () -> {
                try (ActorSystem system = ActorSystem.builder().name("on-main").runtime(rt).build()) {
                    system.onFailure(failures::add);
                    RuntimeException behaviourBoom = new IllegalStateException("behaviour failed");
                    ActorRef<String> behaviour = system.spawn((ctx, m) -> {
                        throw behaviourBoom;
                    });
                    behaviour.tell("go");
                    assertSame(behaviourBoom, system.whenTerminated(behaviour).get(LONG).reason());

                    RuntimeException processBoom = new IllegalStateException("process failed");
                    ActorRef<String> process = system.spawnProcess(self -> {
                        self.receive();
                        throw processBoom;
                    });
                    process.tell("go");
                    assertSame(processBoom, system.whenTerminated(process).get(LONG).reason());

                    RuntimeException pipeBoom = new IllegalStateException("pipe conversion failed");
                    Chan<Integer> ch = new Chan<>(1);
                    ActorRef<Object> piped = system.spawn(Behavior.setup(ctx -> {
                        ctx.pipeFrom(ch, v -> {
                            throw pipeBoom;
                        }, null);
                        return (c, m) -> Behavior.same();
                    }));
                    ch.send(1);
                    assertSame(pipeBoom, system.whenTerminated(piped).get(LONG).reason());

                    Supervisor sup = system.spawnSupervisor(SupervisorSpec.builder()
                            .strategy(SupervisionStrategy.ONE_FOR_ONE).intensity(10, Duration.ofMinutes(1))
                            .child(ChildSpec.process("worker", self -> {
                                int incarnation = starts.incrementAndGet();
                                while (true) {
                                    Object m = self.receive();
                                    if (m instanceof Ping(ActorRef<String> replyTo)) {
                                        replyTo.tell("worker#" + incarnation);
                                    } else {
                                        throw new IllegalStateException("worker crashed");
                                    }
                                }
                            })).build());
                    @SuppressWarnings("unchecked")
                    ActorRef<Object> worker = (ActorRef<Object>) sup.child("worker");
                    assertEquals("worker#1", worker.<String>ask(Ping::new, LONG).get());
                    worker.tell("crash");
                    TestSupport.awaitCondition(() -> starts.get() == 2, () -> "the worker was not restarted");
                    assertEquals("worker#2", worker.<String>ask(Ping::new, LONG).get());
                } catch (Throwable e) {
                    inMain.set(e);
                }
            });
            assertNull(t, () -> "main was ended by " + t);
            assertNull(inMain.get(), () -> "main failed: " + inMain.get());
            assertEquals(4, failures.size(), failures::toString);
            assertEquals(List.of("behaviour failed", "process failed", "pipe conversion failed", "worker crashed"),
                    failures.stream().map(f -> f.reason().getMessage()).toList());
        }
    }
}
