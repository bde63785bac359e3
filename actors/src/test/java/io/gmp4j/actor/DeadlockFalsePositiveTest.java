package io.gmp4j.actor;

import io.gmp4j.DeadlockError;
import io.gmp4j.Go;
import io.gmp4j.NoUncaughtExceptions;
import io.gmp4j.TestSupport;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The README's actor snippet inside Go.main: the main goroutine (default runtime) waits in a
 * channel receive for an answer that the actor system's runtime sends, then closes that
 * runtime. No deadlock may be reported: a goroutine of another runtime can wake it.
 */
@ExtendWith(NoUncaughtExceptions.class)
class DeadlockFalsePositiveTest {
    record Get(ActorRef<Integer> replyTo) {
    }

    /** The snippet as a program: exits 0 with "answer 42", or 1 with the DeadlockError. */
    public static final class Child {
        public static void main(String[] args) {
            Go.main(() -> {
                try (ActorSystem system = ActorSystem.builder().name("app").maxProcs(2).build()) {
                    ActorRef<Get> answer = system.spawn((ctx, g) -> {
                        g.replyTo().tell(42);
                        return Behavior.same();
                    }, "answer");
                    int n = answer.<Integer>ask(Get::new, Duration.ofSeconds(1)).get();
                    if (n != 42) {
                        throw new AssertionError(n);
                    }
                    System.out.println("answer " + n);
                } catch (Exception e) {
                    throw new RuntimeException(e);
                }
            });
        }
    }

    @Test
    void snippetInGoMainIsNeverReportedInOneJvm() {
        int runs = 50;
        for (int i = 0; i < runs; i++) {
            AtomicReference<Throwable> failure = new AtomicReference<>();
            int[] answer = {-1};
            try {
                Go.main(() -> {
                    // Failures are recorded, not thrown: a panic under Go.main ends the JVM.
                    try (ActorSystem system = ActorSystem.builder().name("app").maxProcs(2).build()) {
                        ActorRef<Get> a = system.spawn((ctx, g) -> {
                            g.replyTo().tell(42);
                            return Behavior.same();
                        }, "answer");
                        answer[0] = a.<Integer>ask(Get::new, Duration.ofSeconds(TestSupport.TIMEOUT_S)).get();
                    } catch (Throwable t) {
                        failure.set(t);
                    }
                });
            } catch (DeadlockError e) {
                fail("run " + i + " of " + runs + ": false deadlock report\n" + e.getMessage());
            }
            assertNull(failure.get(), "run " + i);
            assertEquals(42, answer[0], "run " + i);
        }
    }

    @Test
    void snippetInGoMainIsNeverReportedInFreshProcesses() throws IOException, InterruptedException {
        int runs = TestSupport.stress(20, 5);
        for (int i = 0; i < runs; i++) {
            TestSupport.ChildRun run = TestSupport.runChildJvm(List.of(), TestSupport.GMP4J_JVM_FLAGS, Child.class);
            String out = run.output();
            int n = i;
            assertFalse(out.contains(DeadlockError.MESSAGE), () -> "process " + n + " of " + runs + ":\n" + out);
            assertEquals(0, run.exit(), () -> "process " + n + " of " + runs + ":\n" + out);
            assertTrue(out.lines().anyMatch("answer 42"::equals), out);
        }
    }
}
