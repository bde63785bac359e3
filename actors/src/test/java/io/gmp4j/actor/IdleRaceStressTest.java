package io.gmp4j.actor;

import io.gmp4j.NoUncaughtExceptions;
import io.gmp4j.TestSupport;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The race between an actor going idle and a message arriving. A lost wake-up leaves a message
 * in the mailbox of an idle actor that nobody will schedule, and since each round here waits
 * for its one message before sending the next, the round never completes and the bounded wait
 * fails.
 *
 * <p>To hit the window, the sender waits until the actor has handled the previous message (the
 * handler's last action is the count) and then sends after a random spin of 0 to
 * {@value #MAX_SPIN} iterations, so over the rounds the sends sweep across the actor's way out:
 * its last poll, the idle store, the re-check. Checked by mutation (short mode): with the
 * behaviour actor's emptiness check moved before its idle store, the first phase stalls within
 * a handful of rounds; with the process actor's re-check after publishing its waiter moved
 * before it, the goroutine phase stalls. The bounded-mailbox runs add the bound's path (a place
 * taken before the offer, given back by the take) with capacity 1 and policy FAIL, so a place
 * not given back fails the next round's tell. The same race without a runtime, every
 * interleaving, is {@code MailboxIdleJcstress} in the concurrency-tests module.
 */
@ExtendWith(NoUncaughtExceptions.class)
class IdleRaceStressTest {
    static final int MAX_SPIN = 64;

    @Test
    void behaviourActorNeverLosesAWakeUp() throws Exception {
        run(false, Props.DEFAULT);
    }

    @Test
    void processActorNeverLosesAWakeUp() throws Exception {
        run(true, Props.DEFAULT);
    }

    @Test
    void behaviourActorWithABoundedMailboxNeverLosesAWakeUp() throws Exception {
        run(false, Props.DEFAULT.withMailbox(1, Overflow.FAIL));
    }

    @Test
    void processActorWithABoundedMailboxNeverLosesAWakeUp() throws Exception {
        run(true, Props.DEFAULT.withMailbox(1, Overflow.FAIL));
    }

    private void run(boolean process, Props props) throws Exception {
        int rounds = TestSupport.stress(150_000, 30_000) / (props.capacity() > 0 ? 2 : 1);
        try (ActorSystem system = ActorSystem.builder().name(process ? "idle-race-proc" : "idle-race-beh")
                .maxProcs(2).throughput(1).build()) {
            AtomicLong received = new AtomicLong();
            ActorRef<Integer> actor = process
                    ? system.spawnProcess(self -> {
                        while (true) {
                            self.receive();
                            received.incrementAndGet();
                        }
                    }, props)
                    : system.spawn((ctx, m) -> {
                        received.incrementAndGet();
                        return Behavior.same();
                    }, props);

            // From a platform thread: each tell goes through the global queue.
            Thread sender = Thread.ofPlatform().name("racer").start(() -> {
                ThreadLocalRandom rnd = ThreadLocalRandom.current();
                for (int r = 0; r < rounds; r++) {
                    actor.tell(r);
                    long want = r + 1;
                    awaitCount(received, want);
                    for (int s = rnd.nextInt(MAX_SPIN + 1); s > 0; s--) {
                        Thread.onSpinWait();
                    }
                }
            });
            sender.join();
            assertEquals(rounds, received.get(), "exactly once");

            // From goroutines on both Ps: tells land in the sender's runnext.
            long base = received.get();
            int gRounds = rounds / 2;
            TestSupport.runInGoroutine(system.runtime(), () -> {
                ThreadLocalRandom rnd = ThreadLocalRandom.current();
                for (int r = 0; r < gRounds; r++) {
                    actor.tell(r);
                    awaitCount(received, base + r + 1);
                    for (int s = rnd.nextInt(MAX_SPIN + 1); s > 0; s--) {
                        Thread.onSpinWait();
                    }
                }
            });
            assertEquals(base + gRounds, received.get(), "exactly once");
            assertEquals(0, system.deadLetterCount());
        }
    }

    /** Spins (yielding, so a goroutine lets the actor run on its P) until the count is reached. */
    private static void awaitCount(AtomicLong received, long want) {
        long deadline = System.nanoTime() + TestSupport.TIMEOUT_S * 1_000_000_000L;
        int spins = 0;
        while (received.get() < want) {
            if (++spins > 100) {
                Thread.yield();
                if (System.nanoTime() - deadline > 0) {
                    fail("lost wake-up: " + received.get() + " of " + want + " received");
                }
            } else {
                Thread.onSpinWait();
            }
        }
        assertEquals(want, received.get(), "a duplicate");
    }
}
