package io.gmp4j.actor;

import io.gmp4j.NoUncaughtExceptions;
import io.gmp4j.TestSupport;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Many concurrent senders, goroutines and platform threads together: every message arrives
 * exactly once, and each sender's messages arrive in the order sent.
 */
@ExtendWith(NoUncaughtExceptions.class)
class DeliveryTest {
    private static final Duration LONG = Duration.ofSeconds(TestSupport.TIMEOUT_S);

    record Msg(int sender, int seq) {
    }

    /** Checks exactly-once and per-sender FIFO; touched only by the one consumer. */
    static class Checker {
        final int[] next;
        long received;
        final List<String> errors = new ArrayList<>();

        Checker(int senders) {
            next = new int[senders];
        }

        void accept(Msg m) {
            received++;
            if (m.seq() != next[m.sender()]) {
                if (errors.size() < 10) {
                    errors.add("sender " + m.sender() + ": expected " + next[m.sender()] + ", got " + m.seq());
                }
                next[m.sender()] = Math.max(next[m.sender()], m.seq() + 1);
            } else {
                next[m.sender()]++;
            }
        }
    }

    @Test
    void behaviourActorGetsEveryMessageOnceInPerSenderOrder() throws Exception {
        run(false);
    }

    @Test
    void processActorGetsEveryMessageOnceInPerSenderOrder() throws Exception {
        run(true);
    }

    private void run(boolean process) throws Exception {
        int goroutines = 8, threads = 4, senders = goroutines + threads;
        int perSender = TestSupport.stress(200_000, 20_000);
        long total = (long) senders * perSender;
        try (ActorSystem system = ActorSystem.builder().name(process ? "delivery-proc" : "delivery-beh").maxProcs(2)
                .throughput(8).build()) {
            Checker checker = new Checker(senders);
            CountDownLatch all = new CountDownLatch(1);
            ActorRef<Msg> sink;
            if (process) {
                sink = system.spawnProcess(self -> {
                    while (checker.received < total) {
                        checker.accept(self.receive());
                    }
                    all.countDown();
                });
            } else {
                sink = system.spawn((ctx, m) -> {
                    checker.accept(m);
                    if (checker.received == total) {
                        all.countDown();
                    }
                    return Behavior.same();
                });
            }
            CountDownLatch start = new CountDownLatch(1);
            for (int s = 0; s < goroutines; s++) {
                int id = s;
                system.runtime().go(() -> {
                    try {
                        start.await();
                    } catch (InterruptedException e) {
                        return;
                    }
                    for (int i = 0; i < perSender; i++) {
                        sink.tell(new Msg(id, i));
                    }
                });
            }
            List<Thread> platform = new ArrayList<>();
            for (int s = 0; s < threads; s++) {
                int id = goroutines + s;
                platform.add(Thread.ofPlatform().name("sender-" + id).start(() -> {
                    try {
                        start.await();
                    } catch (InterruptedException e) {
                        return;
                    }
                    for (int i = 0; i < perSender; i++) {
                        sink.tell(new Msg(id, i));
                    }
                }));
            }
            start.countDown();
            TestSupport.await(all, () -> checker.received + " of " + total + " received; " + system.runtime().stats());
            for (Thread t : platform) {
                t.join();
            }
            assertEquals(List.of(), checker.errors);
            assertEquals(total, checker.received);
            for (int s = 0; s < senders; s++) {
                assertEquals(perSender, checker.next[s], "sender " + s);
            }
            assertEquals(0, system.deadLetterCount());
            // Nothing more arrives: a last ask goes through the same mailbox after everything.
            if (!process) {
                assertTrue(sink.isAlive());
            }
            sink.stop();
            system.whenTerminated(sink).get(LONG);
            assertEquals(total, checker.received, "no duplicate after the last message");
        }
    }
}
