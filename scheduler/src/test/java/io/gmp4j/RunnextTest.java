package io.gmp4j;

import io.gmp4j.runtime.Scheduler;
import io.gmp4j.runtime.G;
import io.gmp4j.runtime.spi.Landing;
import io.gmp4j.runtime.spi.NetpollHost;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.*;

/** A goroutine woken by a goroutine runs next on the waker's P (Go's runnext). */
@ExtendWith(NoUncaughtExceptions.class)
class RunnextTest {
    @Test
    void pingPongBetweenTwoGoroutinesRunsThroughRunnext() {
        int n = TestSupport.stress(200_000, 50_000);
        try (GoRuntime rt = GoRuntime.builder().maxProcs(1).name("runnext-pingpong").build()) {
            AtomicInteger pings = new AtomicInteger();
            AtomicInteger pongs = new AtomicInteger();
            AtomicInteger outOfTurn = new AtomicInteger();
            CountDownLatch done = new CountDownLatch(2);
            rt.go(() -> {
                G a = G.current();
                G b = Scheduler.of(rt).go(() -> {
                    G me = G.current();
                    for (int i = 0; i < n; i++) {
                        me.park("pong");
                        if (pings.get() != i + 1) {
                            outOfTurn.incrementAndGet();
                        }
                        pongs.incrementAndGet();
                        a.ready();
                    }
                    done.countDown();
                });
                for (int i = 0; i < n; i++) {
                    pings.incrementAndGet();
                    b.ready();
                    a.park("ping");
                    if (pongs.get() != i + 1) {
                        outOfTurn.incrementAndGet();
                    }
                }
                done.countDown();
            });
            TestSupport.await(done, () -> pings + " pings, " + pongs + " pongs; " + rt.stats());
            SchedStats s = rt.stats();
            System.out.println("ping-pong x" + n + ": " + s);
            assertEquals(n, pings.get());
            assertEquals(n, pongs.get());
            assertEquals(0, outOfTurn.get(), "strict alternation");
            // 2n switches, each through runnext; the chain cap (3 in a row) sends one in four
            // through the ring: about 1.5n hits. Without runnext there would be none.
            assertTrue(s.runnextHits() >= n, () -> "runnext hits " + s.runnextHits() + " < " + n + ": " + s);
        }
    }

    /**
     * With one P, X spawns y1, y2, y3 and then readies the parked w: w takes runnext (y3 goes to
     * the tail) and runs before all of them. The order only holds if sysmon left X alone (an
     * OS stall of 10 ms on a busy machine makes it preempt X at go()'s safe point), so a run it
     * disturbed is repeated.
     */
    @Test
    void wokenGoroutineRunsBeforeTheQueuedOnes() {
        try (GoRuntime rt = GoRuntime.builder().maxProcs(1).name("runnext-order").build()) {
            for (int attempt = 0; attempt < 5; attempt++) {
                long disturbedBefore = rt.stats().preemptRequests() + rt.stats().handoffs();
                List<String> order = Collections.synchronizedList(new ArrayList<>());
                CountDownLatch done = new CountDownLatch(4);
                G w = Scheduler.of(rt).go(() -> {
                    G.current().park("wait");
                    order.add("w");
                    done.countDown();
                });
                TestSupport.awaitCondition(() -> w.thread().getState() == Thread.State.WAITING,
                        () -> "w never parked");
                rt.go(() -> {
                    for (int i = 1; i <= 3; i++) {
                        String name = "y" + i;
                        Go.go(() -> {
                            order.add(name);
                            done.countDown();
                        });
                    }
                    w.ready(); // into runnext: y3 is kicked to the tail behind y1, y2
                });
                TestSupport.await(done, () -> order + " " + rt.stats());
                if (rt.stats().preemptRequests() + rt.stats().handoffs() == disturbedBefore) {
                    assertEquals(List.of("w", "y1", "y2", "y3"), order);
                    return;
                }
            }
            Assumptions.abort("sysmon preempted every attempt: the machine is too busy to observe the order");
        }
    }

    /**
     * {@code Landing.LOCAL_TAIL} (how a goroutine that hands a per-P netpoll loop a write
     * readies the loop's poll goroutine) queues behind the goroutines already runnable on the P;
     * a plain {@code ready}, {@code RUNNEXT} and {@code RUNNEXT_NO_WAKEP} take runnext and run
     * first.
     */
    @Test
    void aLocalTailLandingRunsAfterTheGoroutinesAlreadyRunnable() {
        assertEquals(List.of("C", "B", "D"), undisturbedRunOrder(Landing.LOCAL_TAIL));
        assertEquals(List.of("D", "B", "C"), undisturbedRunOrder(null));
        assertEquals(List.of("D", "B", "C"), undisturbedRunOrder(Landing.RUNNEXT));
        assertEquals(List.of("D", "B", "C"), undisturbedRunOrder(Landing.RUNNEXT_NO_WAKEP));
    }

    /**
     * {@link #runOrder} until sysmon leaves a run alone: a preemption of the spawner at a
     * {@code go}'s safe point (an OS stall of 10 ms on a busy machine) sends it behind B and C,
     * and D then lands behind them whatever the landing.
     */
    private static List<String> undisturbedRunOrder(Landing where) {
        for (int attempt = 0; attempt < 5; attempt++) {
            List<String> order = runOrder(where);
            if (order != null) {
                return order;
            }
        }
        Assumptions.abort("sysmon preempted every attempt: the machine is too busy to observe the order");
        return null;
    }

    /** With one P: D parks; B and C are spawned (C in runnext, B in the ring); then D is readied. */
    /** The order the goroutines ran in, or null when sysmon preempted or handed off meanwhile. */
    private static List<String> runOrder(Landing where) {
        try (GoRuntime rt = GoRuntime.builder().maxProcs(1).goroutineRegistry(true).name("ready-tail").build()) {
            NetpollHost host = FakeNetpoll.attach(rt).host;
            long disturbedBefore = rt.stats().preemptRequests() + rt.stats().handoffs();
            List<String> order = Collections.synchronizedList(new ArrayList<>());
            CountDownLatch done = new CountDownLatch(1);
            rt.go(() -> {
                CountDownLatch parking = new CountDownLatch(1);
                CountDownLatch all = new CountDownLatch(3);
                G[] d = new G[1];
                Go.go(() -> {
                    d[0] = G.current();
                    parking.countDown(); // readies the spawner; it runs once D is off the P
                    d[0].park("test");
                    order.add("D");
                    all.countDown();
                });
                try {
                    parking.await();
                    Go.go(() -> {
                        order.add("B");
                        all.countDown();
                    });
                    Go.go(() -> {
                        order.add("C");
                        all.countDown();
                    });
                    // D finished parking (one P: it did before this goroutine ran, unless sysmon
                    // handed the P over mid-park): the ready below unparks it, so the landing
                    // applies, rather than leaving a permit that D's own carrier resubmits.
                    while (d[0].thread().getState() != Thread.State.WAITING) {
                        Thread.onSpinWait();
                    }
                    if (where != null) {
                        host.ready(d[0], where);
                    } else {
                        d[0].ready();
                    }
                    all.await();
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
                done.countDown();
            });
            TestSupport.await(done, () -> "order so far " + order + "; " + rt.stats());
            if (rt.stats().preemptRequests() + rt.stats().handoffs() != disturbedBefore) {
                return null;
            }
            return List.copyOf(order);
        }
    }
}
