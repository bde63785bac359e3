package io.gmp4j;

import io.gmp4j.runtime.G;
import io.gmp4j.runtime.Scheduler;
import io.gmp4j.runtime.spi.NetpollHost;
import io.gmp4j.runtime.spi.TaskBatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * A poller that readied goroutines inside a blocking call (a per-P netpoll turn: goroutines
 * readied between {@code beginTurn} and {@code endTurn} are collected, not queued) and finds
 * no P when the call returns hands them to the global queue before it queues itself, as Go's
 * {@code findRunnable} injects netpoll's list even without a P. Otherwise they would wait until
 * the poller got a P again.
 */
@ExtendWith(NoUncaughtExceptions.class)
class PollBatchWithoutPTest {
    private static volatile boolean hogRunning;
    private static volatile boolean readiedRan;

    @Test
    void whatABlockingTurnReadiedRunsBeforeThePollerThatFoundNoP() {
        hogRunning = false;
        readiedRan = false;
        try (GoRuntime rt = GoRuntime.builder().maxProcs(1).goroutineRegistry(true).name("batch-no-p").build()) {
            NetpollHost host = FakeNetpoll.attach(rt).host;
            List<String> order = Collections.synchronizedList(new ArrayList<>());
            AtomicReference<G> readied = new AtomicReference<>();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            CountDownLatch done = new CountDownLatch(3);

            // The goroutine the poller will ready: parked before the poller starts (one P, so
            // the poller cannot run until this one has unmounted).
            rt.go(() -> {
                G me = G.current();
                readied.set(me);
                me.park("test: wait for the poller");
                order.add("readied");
                readiedRan = true;
                done.countDown();
            });
            TestSupport.awaitCondition(() -> readied.get() != null, () -> "the goroutine to ready never ran");

            rt.go(() -> { // the poller
                // Queued on this P (before the batch begins: inside it, this goroutine's spawns
                // would be collected too); the blocking call hands the P off at once and the hog
                // takes it.
                Go.go(() -> {
                    hogRunning = true;
                    while (!readiedRan) {
                        Scheduler.safePoint(); // sysmon's preemption request yields it, in time
                    }
                    done.countDown();
                });
                TaskBatch batch = new TaskBatch();
                Object token = host.beginTurn(batch);
                try {
                    Syscall.blockingLong(() -> {
                        readied.get().ready(); // collected in the batch, not queued
                        while (!hogRunning) {
                            Thread.onSpinWait(); // keep this M in the call until our P is taken
                        }
                        return null;
                    });
                } catch (Throwable t) {
                    failure.set(t);
                }
                order.add("poller");
                host.endTurn(token, batch);
                done.countDown();
            });

            TestSupport.await(done, () -> "stuck: order " + order + ", " + rt.stats() + "\n" + rt.dump());
            assertEquals(null, failure.get());
            assertEquals(List.of("readied", "poller"), order,
                    "the readied goroutine waited for the poller to get a P back");
        }
    }
}
