package io.gmp4j.runtime;

import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Broken twin of {@code NeedSpinningJcstress} (not shipped, run by {@code -Pbroken-twins}, must
 * FAIL): the submitter's {@code wakep} that finds no idle P just drops its {@code nmspinning}
 * after the unlock, with no {@code needspinning}. P_B's M, having read that 1 and skipped
 * spinning, releases its P without a re-check while the other M holds P_C: the forbidden
 * {@code 0, 0}.
 */
@JCStressTest
@Outcome(id = {"1, 0", "1, 1"}, expect = Expect.ACCEPTABLE, desc = "the submitter took the idle P that P_B's M released and starts an M")
@Outcome(id = "0, 1", expect = Expect.ACCEPTABLE, desc = "P_B's M found the task")
@Outcome(id = "0, 0", expect = Expect.FORBIDDEN, desc = "lost wake-up: the task queued, a P idle, nobody coming")
@State
public class NeedSpinningBrokenJcstress {
    /** P_A's queue: the submitter's goroutine readies the task into its runnext. */
    private final RunQueue runqA = new RunQueue(4);
    private final Runnable task = () -> { };
    private final SpinLock lock = new SpinLock();
    /** Scheduler.gomaxprocs: P_A (the submitter's), P_B (mB's) and P_C (idle at the start). */
    private static final int GOMAXPROCS = 3;
    /** Scheduler.npidle: P_C idle. Written under the lock, read without it (volatile). */
    private volatile int npidle = 1;
    /** Scheduler.nmspinning: no M spins at the start. */
    private final AtomicInteger nmspinning = new AtomicInteger();
    /** Scheduler.needspinning. */
    private volatile boolean needspinning;

    /** Placement.ready into runnext, then Workers.wakep, up to startm. */
    @Actor
    public void submitter(II_Result r) {
        runqA.put(task, true, (batch, n) -> {
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
        // Another M takes the last idle P (exitsyscall's pidleget) between the checks above and
        // this wakep's critical section. jcstress runs two actors on two CPUs, so that M's step
        // sits in this thread at the one point where it matters; P_B's M races with both.
        lock.lock();
        try {
            npidle = npidle - 1;
        } finally {
            lock.unlock();
        }
        lock.lock();
        try {
            if (npidle > 0) { // pidleget
                npidle = npidle - 1;
                r.r1 = 1; // startm(p, true)
                return;
            }
        } finally {
            lock.unlock();
        }
        nmspinning.decrementAndGet();
        r.r1 = 0;
    }

    /**
     * SchedLoop.findRunnable for the M of P_B with nothing of its own: from the spinning
     * condition to the release of its P, the needspinning branch, and the spinning M's re-check.
     */
    @Actor
    public void mB(II_Result r) {
        boolean spinning = false;
        if (2 * nmspinning.get() < GOMAXPROCS - npidle) { // becomeSpinning, then stealWork
            nmspinning.incrementAndGet();
            spinning = true;
            if (!runqA.isEmpty()) {
                r.r2 = 1;
                return;
            }
        }
        lock.lock();
        try {
            if (!spinning && needspinning) { // becomeSpinning; continue top: steal again
                nmspinning.incrementAndGet();
                needspinning = false;
                spinning = true;
                if (!runqA.isEmpty()) {
                    r.r2 = 1;
                    return;
                }
            }
            npidle = npidle + 1; // releasep; pidleput
        } finally {
            lock.unlock();
        }
        if (spinning) { // the delicate dance: drop nmspinning, then checkRunqsNoP
            nmspinning.decrementAndGet();
            r.r2 = runqA.isEmpty() ? 0 : 1;
        }
    }
}
