package io.gmp4j.actor;

import io.gmp4j.NoUncaughtExceptions;
import io.gmp4j.TestSupport;
import io.gmp4j.chan.Chan;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.junit.jupiter.api.Assertions.*;

/**
 * A dying actor's mailbox becomes dead letters before anyone hears of the death, including a
 * watcher that arrives while the mailbox drains (CI once saw {@code whenTerminated} return with
 * two of six dead letters still to come); and its watchers hear of it in the order they watched,
 * including one that arrives while the earlier ones are told (CI once saw a watcher's notice
 * come after a message sent once {@code whenTerminated} had returned).
 */
@ExtendWith(NoUncaughtExceptions.class)
class TerminationOrderTest {
    private static final Duration LONG = Duration.ofSeconds(TestSupport.TIMEOUT_S);

    @Test
    void aWatcherThatArrivesDuringTheDrainHearsOfTheDeathAfterTheLastDeadLetter() throws Exception {
        try (ActorSystem system = ActorSystem.builder().name("termination-order").maxProcs(2).build()) {
            Chan<Boolean> gate = new Chan<>();
            ActorRef<Integer> a = system.spawnProcess(ctx -> {
                gate.recv();
                ctx.receive(); // sees the stop request: the body ends with two messages left
            });
            a.tell(1);
            a.tell(2);
            CountDownLatch draining = new CountDownLatch(1);
            CountDownLatch goOn = new CountDownLatch(1);
            AtomicInteger deadLetters = new AtomicInteger();
            system.onDeadLetter(d -> {
                if (deadLetters.incrementAndGet() == 1) {
                    // Hold the dying actor between its two dead letters.
                    draining.countDown();
                    try {
                        assertTrue(goOn.await(TestSupport.TIMEOUT_S, TimeUnit.SECONDS));
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            });
            a.stop();
            gate.send(true);
            TestSupport.await(draining, () -> "no dead letter\n" + system.runtime().dump());
            Reply<Terminated> t = system.whenTerminated(a);
            try {
                assertFalse(t.isDone(), "told of the death while the mailbox still drains");
            } finally {
                goOn.countDown();
            }
            t.get(LONG);
            assertEquals(2, deadLetters.get());
            assertEquals(2, system.deadLetterCount());
        }
    }

    @Test
    void aWatchThatArrivesWhileTheWatchersAreToldIsToldAfterThem() throws Exception {
        try (ActorSystem system = ActorSystem.builder().name("termination-watch-order").maxProcs(2).build()) {
            ActorRef<Integer> a = system.spawnProcess(ctx -> {
                ctx.receive(); // dies after its first message, in its own goroutine
            });
            CountDownLatch watching = new CountDownLatch(1);
            CountDownLatch mapping = new CountDownLatch(1);
            CountDownLatch goOn = new CountDownLatch(1);
            CountDownLatch done = new CountDownLatch(1);
            List<Object> got = Collections.synchronizedList(new ArrayList<>());
            ActorRef<Object> watcher = system.spawn(Behavior.<Object>setup(ctx -> {
                // The mapping runs on the dying actor's goroutine while it tells its watchers:
                // hold it there, with this watcher's notice not yet sent.
                ctx.watchWith(a, t -> {
                    mapping.countDown();
                    TestSupport.await(goOn, () -> "not let go");
                    return "down";
                });
                watching.countDown();
                return (c, m) -> {
                    got.add(m);
                    if (m.equals("marker")) {
                        done.countDown();
                    }
                    return Behavior.same();
                };
            }));
            TestSupport.await(watching, () -> "watcher did not start");
            a.tell(1);
            TestSupport.await(mapping, () -> "the dying actor did not tell its watcher\n" + system.runtime().dump());
            Reply<Terminated> t = system.whenTerminated(a);
            try {
                assertFalse(t.isDone(), "told of the death before the watcher that watched first");
            } finally {
                goOn.countDown();
            }
            t.get(LONG);
            watcher.tell("marker"); // after the notice in the watcher's FIFO mailbox
            TestSupport.await(done, () -> "no marker: " + got);
            assertEquals(List.of("down", "marker"), got);
        }
    }
}
