package io.gmp4j.actor;

import io.gmp4j.NoUncaughtExceptions;
import io.gmp4j.TestSupport;
import io.gmp4j.actor.PerSenderDelivery.Checker;
import io.gmp4j.actor.PerSenderDelivery.Msg;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static io.gmp4j.actor.PerSenderDelivery.startSenders;
import static org.junit.jupiter.api.Assertions.*;

/**
 * Many concurrent senders, goroutines and platform threads together: every message arrives
 * exactly once, and each sender's messages arrive in the order sent.
 */
@ExtendWith(NoUncaughtExceptions.class)
class DeliveryTest {
    private static final Duration LONG = Duration.ofSeconds(TestSupport.TIMEOUT_S);

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
            List<Thread> platform = startSenders(system, sink, goroutines, threads, perSender, start);
            start.countDown();
            TestSupport.await(all, () -> checker.received + " of " + total + " received; " + system.runtime().stats());
            for (Thread t : platform) {
                t.join();
            }
            checker.assertEveryMessageOnceInOrder(perSender);
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
