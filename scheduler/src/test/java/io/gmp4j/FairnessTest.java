package io.gmp4j;

import io.gmp4j.runtime.Scheduler;
import io.gmp4j.runtime.G;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiConsumer;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Goroutines that keep the local queue busy cannot starve the global queue: every 61st
 * schedtick takes from it first (Go's findRunnable), and the runnext chain is capped.
 *
 * <p>With one P, once the busy goroutines run, the local queue is never empty when the P looks
 * for work, so a goroutine submitted from a platform thread (global queue) can only be taken
 * by the fairness check. A sysmon preemption or handoff (after an OS stall of 10 ms on a busy
 * machine) would open another path, so such a run is repeated.
 */
@ExtendWith(NoUncaughtExceptions.class)
class FairnessTest {
    private static final int WARMUP = 10_000;
    private static final int ATTEMPTS = 5;

    /**
     * Runs {@code busy} (which starts goroutines that keep the P busy until the flag is set,
     * counting down the latch once warmed up), then submits a stopper from this thread.
     */
    private static void assertGlobalQueueNotStarved(String name, int busyGoroutines,
                                                    BiConsumer<GoRuntime, Busy> busy,
                                                    boolean expectRunnextCap) {
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            try (GoRuntime rt = GoRuntime.builder().maxProcs(1).name(name + "-" + attempt).build()) {
                Busy b = new Busy(busyGoroutines);
                busy.accept(rt, b);
                TestSupport.await(b.warm, () -> rt.stats().toString());
                SchedStats before = rt.stats();
                CountDownLatch stopperRan = new CountDownLatch(1);
                rt.go(() -> {
                    b.stop.set(true);
                    stopperRan.countDown();
                });
                TestSupport.await(stopperRan, () -> "starved: " + rt.stats());
                TestSupport.await(b.done, () -> rt.stats().toString());
                SchedStats s = rt.stats();
                if (s.handoffs() != before.handoffs() || s.preemptRequests() != before.preemptRequests()) {
                    continue; // disturbed by an OS stall: the stopper may have come another way
                }
                System.out.println(name + ": " + s);
                assertTrue(s.fairnessPicks() > before.fairnessPicks(), () -> "not the 61st-tick check: " + s);
                if (expectRunnextCap) {
                    assertTrue(s.runnextCapped() > 0, () -> "the runnext chain is capped: " + s);
                }
                return;
            }
        }
        Assumptions.abort("sysmon preempted in every attempt: the machine is too busy to observe it");
    }

    /** Shared state of the busy goroutines. */
    private static final class Busy {
        final AtomicBoolean stop = new AtomicBoolean();
        final AtomicLong rounds = new AtomicLong();
        final CountDownLatch warm = new CountDownLatch(1);
        final CountDownLatch done;

        Busy(int goroutines) {
            done = new CountDownLatch(goroutines);
        }

        void tick() {
            if (rounds.incrementAndGet() == WARMUP) {
                warm.countDown();
            }
        }
    }

    @Test
    void pingPongPairCannotStarveAGoroutineFromTheGlobalQueue() {
        assertGlobalQueueNotStarved("fairness-pingpong", 2, (rt, b) -> rt.go(() -> {
            G a = G.current();
            G other = Scheduler.of(rt).go(() -> pingPong(G.current(), a, b));
            pingPong(a, other, b);
        }), true);
    }

    private static void pingPong(G me, G other, Busy b) {
        while (!b.stop.get()) {
            b.tick();
            other.ready();
            me.park("ping-pong");
        }
        other.ready(); // let the partner see the flag
        b.done.countDown();
    }

    @Test
    void goroutinesRespawningThemselvesCannotStarveTheGlobalQueue() {
        assertGlobalQueueNotStarved("fairness-respawn", 2, (rt, b) -> {
            for (int c = 0; c < 2; c++) {
                rt.go(new Runnable() {
                    @Override
                    public void run() {
                        if (b.stop.get()) {
                            b.done.countDown();
                            return;
                        }
                        b.tick();
                        Go.go(this); // the child lands in runnext, the parent exits
                    }
                });
            }
        }, false);
    }

    /**
     * A goroutine that yields to the global queue does not win the fairness pick back from the
     * one it readied: the yielder readies a partner (into runnext) and yields, 3,000 times; each
     * time the partner runs before the yielder goes on, also on the schedules where the 61st tick
     * looks at the global queue first (its head is then the yielder).
     */
    @Test
    void aYielderDoesNotWinTheFairnessPickFromTheGoroutineItReadied() {
        int rounds = 3_000;
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            try (GoRuntime rt = GoRuntime.builder().maxProcs(1).name("fairness-yield-" + attempt).build()) {
                StringBuilder order = new StringBuilder(2 * rounds);
                CountDownLatch done = new CountDownLatch(1);
                SchedStats[] before = new SchedStats[1];
                rt.go(() -> {
                    G yielder = G.current();
                    AtomicBoolean over = new AtomicBoolean();
                    G partner = Scheduler.of(rt).go(() -> {
                        G me = G.current();
                        while (true) {
                            me.park("partner");
                            if (over.get()) {
                                break;
                            }
                            order.append('P');
                        }
                        done.countDown();
                    });
                    Go.gosched(); // let the partner park first
                    before[0] = rt.stats();
                    for (int i = 0; i < rounds; i++) {
                        partner.ready();
                        Go.gosched();
                        order.append('Y');
                    }
                    over.set(true);
                    partner.ready();
                });
                TestSupport.await(done, () -> "partner did not end: " + rt.stats());
                SchedStats s = rt.stats();
                if (s.handoffs() != before[0].handoffs() || s.preemptRequests() != before[0].preemptRequests()) {
                    continue; // disturbed by an OS stall: sysmon's request reorders the two
                }
                int at = order.indexOf("YY");
                assertEquals(-1, at, () -> "the yielder ran again before its partner at " + at + ": "
                        + order.substring(Math.max(0, at - 20), Math.min(order.length(), at + 20)) + "; " + s);
                assertEquals("PY".repeat(rounds), order.toString());
                return;
            }
        }
        Assumptions.abort("sysmon preempted in every attempt: the machine is too busy to observe it");
    }
}
