package io.gmp4j.runtime;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The state and the two sides of {@link NeedSpinningJcstress}'s race: a submitter's
 * {@code wakep} that takes {@code nmspinning} from 0 to 1 and then finds no idle P, against the
 * M of P_B running out of work and releasing its P.
 *
 * <p>The run queue is the real {@link RunQueue} and the lock the real {@link SpinLock}; the two
 * sides are models of {@code Workers.wakep} (with the other M's {@code pidleget} in its thread)
 * and {@code SchedLoop.findRunnable}, with the production fields' access modes. What wakep does
 * under the lock, once it holds the spinning 1, is a step of its own,
 * {@link #takeIdlePOrHandOver}: the hand-over through {@code needspinning} that the protocol
 * rests on.
 */
class NeedSpinningModel {
    /** Scheduler.gomaxprocs: P_A (the submitter's), P_B (mB's) and P_C (idle at the start). */
    private static final int GOMAXPROCS = 3;

    /** P_A's queue: the submitter's goroutine readies the task into its runnext. */
    private final RunQueue runqA = new RunQueue(4);
    private final Runnable task = () -> { };
    final SpinLock lock = new SpinLock();
    /** Scheduler.npidle: P_C idle. Written under the lock, read without it (volatile). */
    private volatile int npidle = 1;
    /** Scheduler.nmspinning: no M spins at the start. */
    final AtomicInteger nmspinning = new AtomicInteger();
    /** Scheduler.needspinning. */
    private volatile boolean needspinning;

    /**
     * Placement.ready into runnext, then Workers.wakep, up to startm.
     *
     * @return 1 if the submitter took an idle P and starts an M, else 0
     */
    final int readyThenWakep() {
        runqA.put(task, true, RunQueueFixtures.NO_OVERFLOW, new Runnable[3]);
        if (npidle == 0) {
            return 0;
        }
        if (nmspinning.get() != 0 || !nmspinning.compareAndSet(0, 1)) {
            return 0;
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
        return takeIdlePOrHandOver();
    }

    /**
     * Workers.wakep's critical section, holding the spinning 1: takes an idle P if there is
     * one; else pidlegetSpinning sets {@code needspinning}, so that the next M to release its P
     * spins instead, and drops the 1, both under the lock that M takes to release its P.
     *
     * @return 1 if an idle P was taken (startm(p, true)), else 0
     */
    int takeIdlePOrHandOver() {
        lock.lock();
        try {
            if (pidleget()) {
                return 1;
            }
            needspinning = true;
            nmspinning.decrementAndGet();
            return 0;
        } finally {
            lock.unlock();
        }
    }

    /** pidleget under the lock (the caller holds it): takes an idle P if there is one. */
    final boolean pidleget() {
        if (npidle > 0) {
            npidle = npidle - 1;
            return true;
        }
        return false;
    }

    /**
     * SchedLoop.findRunnable for the M of P_B with nothing of its own: from the spinning
     * condition to the release of its P, the needspinning branch, and the spinning M's re-check.
     *
     * @return 1 if P_B's M found the task, else 0
     */
    final int findRunnable() {
        boolean spinning = false;
        if (2 * nmspinning.get() < GOMAXPROCS - npidle) { // becomeSpinning, then stealWork
            nmspinning.incrementAndGet();
            spinning = true;
            if (!runqA.isEmpty()) {
                return 1;
            }
        }
        lock.lock();
        try {
            if (!spinning && needspinning) { // becomeSpinning; continue top: steal again
                nmspinning.incrementAndGet();
                needspinning = false;
                spinning = true;
                if (!runqA.isEmpty()) {
                    return 1;
                }
            }
            npidle = npidle + 1; // releasep; pidleput
        } finally {
            lock.unlock();
        }
        if (spinning) { // the delicate dance: drop nmspinning, then checkRunqsNoP
            nmspinning.decrementAndGet();
            return runqA.isEmpty() ? 0 : 1;
        }
        return 0;
    }
}
