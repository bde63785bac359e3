package io.gmp4j.runtime;

import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Broken twin of {@code SpinningDropJcstress} (not shipped, run by {@code -Pbroken-twins}, must
 * FAIL): the spinning M drops {@code nmspinning} with a release-only store
 * ({@code lazySet}) instead of the atomic decrement, so nothing orders that store before its
 * re-check of the run queue. On x86 the store waits in the store buffer while the re-check
 * reads the queue empty, and the submitter meanwhile reads the old count of 1: the forbidden
 * {@code 0, 0}.
 */
@JCStressTest
@Outcome(id = "1, 0", expect = Expect.ACCEPTABLE, desc = "submitter starts an M")
@Outcome(id = "0, 1", expect = Expect.ACCEPTABLE, desc = "the spinning M saw the task")
@Outcome(id = "1, 1", expect = Expect.ACCEPTABLE, desc = "both")
@Outcome(id = "0, 0", expect = Expect.FORBIDDEN, desc = "lost wake-up: the task queued, nobody coming")
@State
public class SpinningDropBrokenJcstress {
    private final RunQueue runq = new RunQueue(4);
    private final Runnable task = () -> { };
    private final SpinLock lock = new SpinLock();
    private volatile int npidle;
    private final AtomicInteger nmspinning = new AtomicInteger(1);

    @Actor
    public void submitter(II_Result r) {
        runq.put(task, true, (batch, n) -> {
            throw new AssertionError("no overflow expected");
        }, new Runnable[3]);
        if (npidle == 0) {
            r.r1 = 0;
            return;
        }
        if (nmspinning.get() != 0 || !nmspinning.compareAndSet(0, 1)) {
            r.r1 = 0;
            return;
        }
        r.r1 = 1;
    }

    @Actor
    public void spinningMDrops(II_Result r) {
        lock.lock();
        try {
            npidle = npidle + 1;
        } finally {
            lock.unlock();
        }
        nmspinning.lazySet(nmspinning.get() - 1); // BROKEN: release store, no StoreLoad
        r.r2 = runq.isEmpty() ? 0 : 1;
    }
}
