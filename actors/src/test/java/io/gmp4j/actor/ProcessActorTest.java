package io.gmp4j.actor;

import io.gmp4j.NoUncaughtExceptions;
import io.gmp4j.TestSupport;
import io.gmp4j.chan.Chan;
import io.gmp4j.chan.Select;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.junit.jupiter.api.Assertions.*;

/** Process actors: receive, receive with a timeout, selective receive, channels, stop. */
@ExtendWith(NoUncaughtExceptions.class)
class ProcessActorTest {
    private static final Duration LONG = Duration.ofSeconds(TestSupport.TIMEOUT_S);

    record Ping(ActorRef<String> from) {
    }

    @Test
    void aProcessReceivesInOrderAndAnswers() {
        try (ActorSystem system = ActorSystem.builder().name("proc-basic").maxProcs(2).build()) {
            ActorRef<Object> echo = system.spawnProcess(self -> {
                int n = 0;
                while (true) {
                    Object m = self.receive();
                    if (m instanceof Ping(ActorRef<String> from)) {
                        from.tell("pong " + n);
                    } else {
                        n++;
                    }
                }
            });
            for (int i = 0; i < 100; i++) {
                echo.tell(i);
            }
            assertEquals("pong 100", echo.<String>ask(Ping::new, LONG).get());
            echo.stop();
            Terminated t = system.whenTerminated(echo).get(LONG);
            assertFalse(t.failed(), "a stop request is a normal stop");
        }
    }

    @Test
    void receiveWithTimeoutReturnsNullAndSelectiveReceiveKeepsTheRestInOrder() {
        try (ActorSystem system = ActorSystem.builder().name("proc-select").maxProcs(2).build()) {
            List<Object> log = new ArrayList<>();
            CountDownLatch sent = new CountDownLatch(1);
            CountDownLatch timedOut = new CountDownLatch(1);
            ActorRef<Object> p = system.spawnProcess(self -> {
                log.add(String.valueOf(self.receive(Duration.ofMillis(5)))); // nothing yet: null
                timedOut.countDown();
                sent.await();
                log.add(self.receive(m -> m instanceof Integer)); // skips "a", "b"
                log.add(self.receive(m -> m instanceof Integer, Duration.ofMillis(5))); // none left: null
                log.add(self.receive()); // "a" first: order kept
                log.add(self.receive());
                log.add(self.receive());
                log.add(self.receive(Duration.ofMillis(5)));
            });
            TestSupport.await(timedOut, () -> "the first receive never timed out");
            p.tell("a");
            p.tell("b");
            p.tell(1);
            p.tell("c");
            sent.countDown();
            Terminated t = system.whenTerminated(p).get(LONG);
            assertNull(t.reason(), () -> "failed: " + t.reason());
            assertEquals(java.util.Arrays.asList("null", 1, null, "a", "b", "c", null), log);
            assertEquals(0, system.deadLetterCount());
        }
    }

    @Test
    void aProcessWaitsOnChannelsAndAsksOtherActors() {
        try (ActorSystem system = ActorSystem.builder().name("proc-chan").maxProcs(2).build()) {
            ActorRef<Ping> ponger = system.spawn((ctx, ping) -> {
                ping.from().tell("pong");
                return Behavior.same();
            });
            Chan<String> in = new Chan<>();
            Chan<String> out = new Chan<>(1);
            ActorRef<String> p = system.spawnProcess(self -> {
                Select s = new Select();
                int c = s.recv(in);
                s.timeout(LONG);
                if (s.select() == c) {
                    String answer = ponger.<String>ask(Ping::new, LONG).get();
                    out.send(s.value() + "/" + answer + "/" + self.receive());
                }
            });
            p.tell("mailbox");
            in.send("chan");
            assertEquals("chan/pong/mailbox", out.recv());
            system.whenTerminated(p).get(LONG);
        }
    }

    @Test
    void anExceptionInAProcessStopsItAndLeftoverMessagesAreDeadLetters() {
        try (ActorSystem system = ActorSystem.builder().name("proc-fail").maxProcs(2).build()) {
            CountDownLatch queued = new CountDownLatch(1);
            ActorRef<String> p = system.spawnProcess(self -> {
                self.receive(m -> m.equals("go"));
                queued.await();
                throw new IllegalStateException("process failed");
            });
            p.tell("skipped"); // stashed by the selective receive
            p.tell("go");
            p.tell("left in mailbox");
            queued.countDown();
            Terminated t = system.whenTerminated(p).get(LONG);
            assertEquals("process failed", t.reason().getMessage());
            assertEquals(2, system.deadLetterCount());
            assertEquals(1, system.failureCount());
        }
    }

    @Test
    void receiveOutsideTheProcessIsRefused() {
        try (ActorSystem system = ActorSystem.builder().name("proc-misuse").maxProcs(1).build()) {
            AtomicReference<ProcessContext<String>> ctx = new AtomicReference<>();
            CountDownLatch got = new CountDownLatch(1);
            ActorRef<String> p = system.spawnProcess(self -> {
                ctx.set(self);
                got.countDown();
                self.receive();
            });
            TestSupport.await(got, () -> "not started");
            assertThrows(IllegalStateException.class, () -> ctx.get().receive());
            p.stop();
            system.whenTerminated(p).get(LONG);
        }
    }
}
