package io.gmp4j.runtime;

import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The submission/spinning Dekker pair of {@link Scheduler} (proc.go's "delicate dance"): a
 * goroutine readies a task into its P's runnext and calls {@code wakep}, while the only
 * spinning M, having found nothing, releases its P, drops {@code nmspinning} and re-checks the
 * run queues. Either the submitter sees no spinning M and starts one, or the M leaving spinning
 * sees the task; neither is the lost wake-up (the task waits in a queue while an idle P and an
 * idle M exist). Results: the submitter's wakep got past its checks to start an M (1/0), the
 * dropping M found the task (1/0).
 *
 * <p>The run queue is the real {@link RunQueue} ({@code put} into runnext is the production
 * CAS, {@code isEmpty} the production acquire reads). The scheduler around it cannot run in
 * isolation, so the two sides are models of the named production code, line for line, with
 * the production fields' access modes: {@code npidle} a volatile int written under
 * {@code sched.lock} (a real {@link SpinLock}), {@code nmspinning} an {@link AtomicInteger}
 * ({@code ModelledFieldsTest} in scheduler checks that the production fields keep them).
 * The twin in {@code src/broken/java} drops {@code nmspinning} with a release-only store
 * (no StoreLoad) and is seen to lose the wake-up.
 */
@JCStressTest
@Outcome(id = "1, 0", expect = Expect.ACCEPTABLE, desc = "submitter saw the P idle and no spinning M: it starts one")
@Outcome(id = "0, 1", expect = Expect.ACCEPTABLE, desc = "submitter trusted the spinning M, which saw the task")
@Outcome(id = "1, 1", expect = Expect.ACCEPTABLE, desc = "both: a spare M starts and finds nothing (allowed)")
@Outcome(id = "0, 0", expect = Expect.FORBIDDEN, desc = "lost wake-up: the task queued, nobody coming")
@State
public class SpinningDropJcstress {
    /** The submitter's P's queue; its owner is the submitter actor. */
    private final RunQueue runq = new RunQueue(4);
    private final Runnable task = () -> { };
    private final SpinLock lock = new SpinLock();
    /** Scheduler.npidle: both Ps busy at the start (the submitter's and the spinning M's). */
    private volatile int npidle;
    /** Scheduler.nmspinning: the spinning M's count. */
    private final AtomicInteger nmspinning = new AtomicInteger(1);

    /** Scheduler.execute (READY_NEXT) then Scheduler.wakep, up to the start of an M. */
    @Actor
    public void submitter(II_Result r) {
        // execute: runqput(p, task, true) -> RunQueue.put's RUNNEXT.compareAndSet (volatile)
        runq.put(task, true, RunQueueFixtures.NO_OVERFLOW, new Runnable[3]);
        // wakep: "if (npidle == 0) return;" (volatile read)
        if (npidle == 0) {
            r.r1 = 0;
            return;
        }
        // wakep: "if (nmspinning.get() != 0 || !nmspinning.compareAndSet(0, 1)) return;"
        if (nmspinning.get() != 0 || !nmspinning.compareAndSet(0, 1)) {
            r.r1 = 0;
            return;
        }
        r.r1 = 1; // wakep goes on to pidleget and startm(p, true)
    }

    /** Scheduler.findRunnable from "release the P" to checkRunqsNoP, for a spinning M. */
    @Actor
    public void spinningMDrops(II_Result r) {
        // lock.lock(); ... releasep(m); pidleput(p): "npidle = npidle + 1" under the lock
        lock.lock();
        try {
            npidle = npidle + 1;
        } finally {
            lock.unlock();
        }
        // "if (nmspinning.decrementAndGet() < 0)": the atomic decrement is the StoreLoad
        nmspinning.decrementAndGet();
        // checkRunqsNoP: "if (!isIdle(p2) && !p2.runq.isEmpty())" (the submitter's P is busy)
        r.r2 = runq.isEmpty() ? 0 : 1;
    }
}
