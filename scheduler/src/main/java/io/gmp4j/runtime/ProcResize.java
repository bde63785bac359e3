package io.gmp4j.runtime;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Go's {@code runtime.GOMAXPROCS(n)}: {@code stopTheWorldGC("GOMAXPROCS")}, {@code procresize}
 * and {@code startTheWorld}, for one scheduler.
 *
 * <h2>Stopping the world</h2>
 * {@link Scheduler#gcwaiting} is set under the scheduler lock, and every P on the idle list
 * moves to {@link P#GCSTOP} in the same critical section; from then on {@code pidleput} stops
 * a P instead of idling it, so the idle list stays empty and no M can take a P. The other Ps
 * stop on their own or are taken, as in Go's {@code stopTheWorldWithSema}:
 * <ul>
 *   <li>an M in the scheduler loop sees {@code gcwaiting} at the top of {@code findRunnable}
 *       (or under the lock where it would release its P) and stops its P (Go's {@code gcstopm});</li>
 *   <li>a P running a goroutine ({@code USER}) gets a preempt request each round: the goroutine
 *       yields at its next safe point, or unmounts when it parks, and its M is back in the
 *       loop. A goroutine with no safe point delays the stop (as in Go before 1.14) by up to
 *       {@link #GRACE_NANOS}; then its P is taken by CAS {@code USER -> GCSTOP} and its M runs it
 *       on without a P, as after sysmon's hand-off;</li>
 *   <li>a P in a syscall is taken by CAS {@code SYSCALL -> GCSTOP} (Go's {@code _Psyscall ->
 *       _Pgcstop}); the goroutine's {@code exitsyscall} then finds no P and queues globally.</li>
 * </ul>
 * The stopping thread polls the Ps (20 µs, doubling to 1 ms) until all are {@code GCSTOP}.
 * It is always a thread that no M of this scheduler carries: a goroutine of this runtime that
 * calls {@link #gomaxprocs} hands the work to a platform thread and parks, because its wait
 * would otherwise need a P of the world it stops.
 *
 * <h2>Resizing</h2>
 * With every P stopped no M owns one: Ms that lost theirs by CAS still hold a stale
 * {@code m.p}, and every owner path of theirs compares the P's status word with their own
 * epoch before touching the P, which fails from here on (the restart bumps each epoch); the
 * one other use of {@code m.p}, arming a timer in its heap, is refused once the P is removed
 * ({@link Timers#add} answers {@code GONE}) and goes to a live P. Removed Ps
 * ({@link #destroy}) move their queued tasks, runnext first, to the global queue head, their
 * timers to a remaining P, and become {@link P#DEAD}. Ps are kept by id in {@link #pool} and
 * come back, emptied, when GOMAXPROCS grows again (Go keeps them in allp's backing array).
 * The new allp is a new array, published under the lock with GOMAXPROCS.
 *
 * <h2>Starting the world</h2>
 * Under the lock: {@code gcwaiting} is cleared and each P gets a new epoch; Ps with an empty
 * queue go on the idle list, the others each get an M ({@code startm}). Then {@code wakep}
 * for the global queue (where removed Ps' tasks went), and the poller is told of the
 * earliest timer (moved timers may be due).
 *
 * <h2>Per-P network pollers</h2>
 * A per-P poller's loops ({@link io.gmp4j.runtime.spi.Netpoll}) are fixed when it attaches;
 * they are owned by goroutines, not by Ps, so they keep running on whatever Ps exist. After a
 * change the P ids passed to {@code netpoll} need not match the loop count: the poller maps
 * them onto its loops (each call looks at every loop, its own first).
 */
final class ProcResize {
    /** How long a stop-the-world waits for a goroutine without safe points before taking its P. */
    static final long GRACE_NANOS = Sysmon.HANDOFF_AFTER_PREEMPT_NANOS;
    private static final long MIN_POLL_NANOS = 20_000;
    private static final long MAX_POLL_NANOS = 1_000_000;

    // Indexes of {@link #retired}: counters of removed Ps, kept in the runtime's totals.
    static final int RUNNEXT_HITS = 0;
    static final int STEALS = 1;
    static final int STOLEN = 2;
    static final int OVERFLOWS = 3;
    static final int FAIRNESS = 4;
    static final int CAPPED = 5;

    private final Scheduler s;
    /** Go's worldsema: one stop-the-world at a time. */
    private final ReentrantLock worldsema = new ReentrantLock();
    /** Every P ever made, by id; allp is a prefix. Read and written under worldsema only. */
    private P[] pool;
    /** Per-P counters of removed Ps: written with the world stopped, read racily by stats. */
    private final AtomicLongArray retired = new AtomicLongArray(6);

    ProcResize(Scheduler s, P[] initial) {
        this.s = s;
        this.pool = initial.clone();
    }

    long retired(int counter) {
        return retired.get(counter);
    }

    /** {@link Scheduler#gomaxprocs(int)} for {@code n >= 1}. */
    int gomaxprocs(int n) {
        if (s.closedFlag()) {
            throw closed();
        }
        if (n > s.maxThreads) {
            throw new IllegalArgumentException("GOMAXPROCS " + n + " exceeds the thread cap maxThreads="
                    + s.maxThreads + " of gmp4j runtime '" + s.name + "'");
        }
        M m = Carrier.currentM();
        if (m == null || m.sched != s) {
            return resize(n);
        }
        if (!Thread.currentThread().isVirtual()) {
            throw new IllegalStateException("GOMAXPROCS(" + n + ") called from a task running directly on an M of"
                    + " gmp4j runtime '" + s.name + "' (a timer callback or behaviour actor), which must not block;"
                    + " call it from a goroutine");
        }
        // A goroutine of this runtime: the stop-the-world runs on a platform thread while this
        // goroutine parks (its M goes back to the loop and stops with the rest).
        FutureTask<Integer> task = new FutureTask<>(() -> resize(n));
        Thread.ofPlatform().daemon().name(s.name + "-procresize").start(() -> {
            s.unpinCurrentThread(); // a thread inherits a pinned M's CPU
            task.run();
        });
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return task.get();
                } catch (InterruptedException e) {
                    interrupted = true; // uninterruptible, as a Go call is
                } catch (ExecutionException e) {
                    Throwable c = e.getCause();
                    if (c instanceof RuntimeException re) {
                        throw re;
                    }
                    if (c instanceof Error err) {
                        throw err;
                    }
                    throw new IllegalStateException(c);
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private IllegalStateException closed() {
        return new IllegalStateException("gmp4j runtime '" + s.name + "' is closed: cannot change GOMAXPROCS");
    }

    /** Go's GOMAXPROCS body on a thread that is not an M of this scheduler. */
    private int resize(int n) {
        // While the world stops, goroutines wait in stopped Ps' queues and every M sleeps: this
        // thread will wake them, so no deadlock may be reported meanwhile.
        Scheduler.platformWait(true);
        worldsema.lock();
        try {
            int old = s.gomaxprocs;
            if (n == old) {
                return old;
            }
            stopTheWorld();
            try {
                procresize(n);
            } finally {
                startTheWorld();
            }
            return old;
        } finally {
            worldsema.unlock();
            Scheduler.platformWait(false);
        }
    }

    /** Go's stopTheWorldWithSema. Returns with every P of allp in {@code GCSTOP}. */
    private void stopTheWorld() {
        s.lock.lock();
        try {
            if (s.closedFlag()) {
                throw closed();
            }
            s.gcwaiting = true;
            // pidleput stops Ps from now on; the ones already idle stop here.
            P p;
            while ((p = s.pidleget()) != null) {
                p.setStatus(P.pack(P.epoch(p.status()), P.GCSTOP));
            }
        } finally {
            s.lock.unlock();
        }
        long start = System.nanoTime();
        long pause = MIN_POLL_NANOS;
        while (true) {
            boolean stopped = true;
            boolean grace = System.nanoTime() - start >= GRACE_NANOS;
            for (P p : s.allp) {
                long st = p.status();
                switch (P.state(st)) {
                    case P.GCSTOP -> {
                    }
                    case P.SYSCALL -> stopped &= take(p, st);
                    case P.USER -> {
                        p.preempt = true;
                        stopped &= grace && take(p, st);
                    }
                    case P.RUNNING -> {
                        // scheduler code: it reaches gcwaiting soon; a goroutine mid owner
                        // operation returns to USER and then finds the request
                        p.preempt = true;
                        stopped = false;
                    }
                    default -> stopped = false; // IDLE off the list: on its way to pidleput or an M
                }
            }
            if (stopped) {
                return;
            }
            if (s.closedFlag()) {
                s.lock.lock();
                try {
                    s.gcwaiting = false;
                } finally {
                    s.lock.unlock();
                }
                throw closed();
            }
            LockSupport.parkNanos(pause);
            pause = Math.min(pause * 2, MAX_POLL_NANOS);
        }
    }

    /** CAS {@code st -> GCSTOP} under the same epoch; the M that held the P finds out at its next check. */
    private static boolean take(P p, long st) {
        if (p.casStatus(st, P.pack(P.epoch(st), P.GCSTOP))) {
            p.m = null;
            return true;
        }
        return false;
    }

    /** Go's procresize, with the world stopped. */
    private void procresize(int n) {
        P[] oldp = s.allp;
        int old = oldp.length;
        if (pool.length < n) {
            pool = Arrays.copyOf(pool, n);
        }
        for (int i = old; i < n; i++) {
            P p = pool[i];
            if (p == null) {
                p = new P(i, s.runqCapacity(), true, s);
                p.setStatus(P.pack(0, P.GCSTOP));
                pool[i] = p;
            } else {
                revive(p);
            }
        }
        P[] newp = Arrays.copyOf(pool, n);
        if (n > 1) {
            for (P p : newp) {
                if (!p.runq.stealable()) {
                    p.runq = p.runq.stealableCopy(); // built for one P, with no thieves
                }
            }
        }
        for (int i = n; i < old; i++) {
            destroy(oldp[i], newp[i % n]);
        }
        s.lock.lock();
        try {
            s.publishProcs(newp);
        } finally {
            s.lock.unlock();
        }
    }

    /**
     * Go's {@code (*p).destroy}: moves {@code p}'s queued tasks to the global queue head (runnext
     * first, then the ring in order) and its timers to {@code heir}, keeps its counters in the
     * totals, and marks it dead.
     */
    private void destroy(P p, P heir) {
        List<Runnable> tasks = new ArrayList<>();
        p.runq.drainTo(tasks::add); // runnext first, then head to tail
        if (!tasks.isEmpty()) {
            Runnable[] batch = tasks.toArray(new Runnable[0]);
            s.lock.lock();
            try {
                s.runq.putHeadBatch(batch, 0, batch.length);
            } finally {
                s.lock.unlock();
            }
        }
        p.timers.moveAllTo(heir.timers);
        retired.addAndGet(RUNNEXT_HITS, p.runnextHits);
        retired.addAndGet(STEALS, p.steals);
        retired.addAndGet(STOLEN, p.stolenTasks);
        retired.addAndGet(OVERFLOWS, p.overflows);
        retired.addAndGet(FAIRNESS, p.fairnessPicks);
        retired.addAndGet(CAPPED, p.runnextCapped);
        p.runnextHits = p.steals = p.stolenTasks = p.overflows = p.fairnessPicks = p.runnextCapped = 0;
        p.preempt = false;
        p.m = null;
        p.setStatus(P.pack(P.epoch(p.status()) + 1, P.DEAD));
    }

    /** A removed P comes back, empty (destroy emptied it), under a new epoch. */
    private static void revive(P p) {
        p.tasksRun = 0;
        p.netpollRan = -1;
        p.runnextChain = 0;
        p.preempt = false;
        p.timers.revive();
        p.setStatus(P.pack(P.epoch(p.status()) + 1, P.GCSTOP));
    }

    /** Go's startTheWorldWithSema and procresize's tail: every P idles or gets an M. */
    private void startTheWorld() {
        List<P> runnable = new ArrayList<>();
        s.lock.lock();
        try {
            s.gcwaiting = false;
            if (s.closedFlag()) {
                return; // the Ms are exiting; nothing to hand out
            }
            P[] all = s.allp;
            for (int i = all.length - 1; i >= 0; i--) {
                P p = all[i];
                if (P.state(p.status()) != P.GCSTOP) {
                    continue; // an abort left it running
                }
                p.preempt = false;
                p.m = null;
                // a new epoch: an M that lost this P by CAS can never take it for its own again
                p.setStatus(P.pack(P.epoch(p.status()) + 1, P.IDLE));
                if (p.runq.isEmpty()) {
                    s.pidleput(p);
                } else {
                    runnable.add(p);
                }
            }
        } finally {
            s.lock.unlock();
        }
        for (P p : runnable) {
            s.startm(p, false, false);
        }
        s.wakep(); // the global queue may hold removed Ps' tasks
        long w = s.earliestTimerWhen();
        if (w != 0) {
            s.wakeNetPoller(w);
        }
    }
}
