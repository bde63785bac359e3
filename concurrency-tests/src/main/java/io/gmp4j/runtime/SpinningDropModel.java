package io.gmp4j.runtime;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The state and the two sides of {@link SpinningDropJcstress}'s race: a goroutine readying a
 * task into its P's runnext and calling {@code wakep}, against the only spinning M releasing its
 * P, dropping {@code nmspinning} and re-checking the run queues.
 *
 * <p>The run queue is the real {@link RunQueue} ({@code put} into runnext is the production
 * CAS, {@code isEmpty} the production acquire reads). The scheduler around it cannot run in
 * isolation, so the two sides are models of the named production code, line for line, with
 * the production fields' access modes: {@code npidle} a volatile int written under
 * {@code sched.lock} (a real {@link SpinLock}), {@code nmspinning} an {@link AtomicInteger}
 * ({@code ModelledFieldsTest} in scheduler checks that the production fields keep them).
 * The spinning M's drop of {@code nmspinning} is a step of its own, {@link #dropSpinning}: the
 * StoreLoad that the protocol rests on.
 */
class SpinningDropModel {
    /** The submitter's P's queue; its owner is the submitter. */
    private final RunQueue runq = new RunQueue(4);
    private final Runnable task = () -> { };
    private final SpinLock lock = new SpinLock();
    /** Scheduler.npidle: both Ps busy at the start (the submitter's and the spinning M's). */
    private volatile int npidle;
    /** Scheduler.nmspinning: the spinning M's count. */
    final AtomicInteger nmspinning = new AtomicInteger(1);

    /**
     * Scheduler.execute (READY_NEXT) then Scheduler.wakep, up to the start of an M.
     *
     * @return 1 if wakep got past its checks and goes on to start an M, else 0
     */
    final int readyThenWakep() {
        // execute: runqput(p, task, true) -> RunQueue.put's RUNNEXT.compareAndSet (volatile)
        runq.put(task, true, RunQueueFixtures.NO_OVERFLOW, new Runnable[3]);
        // wakep: "if (npidle == 0) return;" (volatile read)
        if (npidle == 0) {
            return 0;
        }
        // wakep: "if (nmspinning.get() != 0 || !nmspinning.compareAndSet(0, 1)) return;"
        if (nmspinning.get() != 0 || !nmspinning.compareAndSet(0, 1)) {
            return 0;
        }
        return 1; // wakep goes on to pidleget and startm(p, true)
    }

    /**
     * Scheduler.findRunnable from "release the P" to checkRunqsNoP, for a spinning M.
     *
     * @return 1 if the M's re-check found the task, else 0
     */
    final int releasePThenRecheck() {
        // lock.lock(); ... releasep(m); pidleput(p): "npidle = npidle + 1" under the lock
        lock.lock();
        try {
            npidle = npidle + 1;
        } finally {
            lock.unlock();
        }
        dropSpinning();
        // checkRunqsNoP: "if (!isIdle(p2) && !p2.runq.isEmpty())" (the submitter's P is busy)
        return runq.isEmpty() ? 0 : 1;
    }

    /**
     * The M leaving spinning: "if (nmspinning.decrementAndGet() < 0)". The atomic decrement is
     * the StoreLoad that orders the drop before the re-check's reads of the run queues.
     */
    void dropSpinning() {
        nmspinning.decrementAndGet();
    }
}
