package io.gmp4j;

import io.gmp4j.runtime.spi.NetpollHost;
import io.gmp4j.runtime.spi.TaskBatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/**
 * A poll goroutine's batch is its own, wherever it ends its turn. Per-P poll goroutines begin a
 * batch on one M and may end it on another (they yield mid-turn, or on the way out of a
 * blocking turn). Meanwhile a second poll goroutine can begin its own batch on the first M. The
 * first one's end must not touch the second one's batch: when it did (batch state kept on the
 * M and cleared from wherever the turn ended), the second goroutine's readies escaped its batch,
 * and in the worst interleaving left the M "batching" with no batch, so a ready failed inside
 * the JDK's unpark and the readied goroutine never ran (the proxy's stranded readers, 2026-12-02).
 *
 * <p>Here four pollers on two Ps each run many turns: begin a turn, start goroutines (a start
 * from inside a turn is collected like a ready), check every one of them is in the batch, yield
 * through the global queue (so turns end on whichever M runs the poller next, often another), end the turn. Every
 * started goroutine must run exactly once.
 */
@ExtendWith(NoUncaughtExceptions.class)
class PollBatchOwnershipTest {
    private static final int POLLERS = 4;
    private static final int PER_TURN = 3;

    @Test
    void aTurnThatEndsOnAnotherMLeavesTheBatchBegunThereAlone() {
        int turns = TestSupport.stress(20_000, 4_000);
        try (GoRuntime rt = GoRuntime.builder().maxProcs(2).name("batch-owner").build()) {
            NetpollHost host = FakeNetpoll.attach(rt).host;
            AtomicLong ran = new AtomicLong();
            AtomicReference<String> escaped = new AtomicReference<>();
            CountDownLatch pollersDone = new CountDownLatch(POLLERS);
            for (int p = 0; p < POLLERS; p++) {
                int poller = p;
                rt.go(() -> {
                    TaskBatch batch = new TaskBatch();
                    for (int t = 0; t < turns; t++) {
                        Object token = host.beginTurn(batch);
                        for (int i = 0; i < PER_TURN; i++) {
                            Go.go(ran::incrementAndGet);
                            TestSupport.burn(2_000); // a turn's work: another M's turn may end meanwhile
                        }
                        if (batch.size() != PER_TURN && escaped.get() == null) {
                            escaped.set("poller " + poller + ", turn " + t + ": " + batch.size() + " of "
                                    + PER_TURN + " started goroutines in the batch");
                        }
                        Go.gosched(); // via the global queue: the turn goes on wherever the poller runs next
                        host.endTurn(token, batch);
                    }
                    pollersDone.countDown();
                });
            }
            TestSupport.await(pollersDone, () -> "pollers stuck: " + rt.stats() + "\n" + rt.dump());
            long expected = (long) POLLERS * turns * PER_TURN;
            TestSupport.awaitCondition(() -> ran.get() == expected,
                    () -> ran.get() + " of " + expected + " started goroutines ran: " + rt.stats() + "\n" + rt.dump());
            assertNull(escaped.get(), "a start escaped its poller's batch");
            assertEquals(expected, ran.get());
        }
    }
}
