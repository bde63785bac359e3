package io.gmp4j.runtime;

import java.util.Arrays;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Supplier;

/**
 * The executor entry: where a runnable task lands. {@link #execute} (the JDK's callback when a
 * goroutine becomes runnable) chooses runnext, the local tail or the global queue by who calls;
 * the netpoll batch entries collect the goroutines one poll readied and inject them as one
 * list (Go's injectglist); the global queue's put and get.
 */
abstract sealed class Placement extends Workers implements Executor permits SchedLoop {
    Placement(Scheduler.Config c) {
        super(c);
    }

    // =====================================================================================
    // The executor entry: where a runnable task lands
    // =====================================================================================

    /**
     * Makes {@code task} runnable. Called by the JDK when a goroutine starts or unparks, and by
     * other modules for plain tasks. Never blocks for long: the JDK calls it with the
     * submitting virtual thread pinned.
     *
     * @throws RejectedExecutionException when this runtime is closed
     */
    @Override
    public void execute(Runnable task) {
        if (life.closed) {
            throw new RejectedExecutionException("gmp4j runtime '" + name + "' is closed: cannot schedule " + task
                    + " (a goroutine of a closed runtime was woken)");
        }
        M m = Carrier.currentM();
        if (m != null && m.sched == this) {
            // A poll goroutine inside a poll: its readied goroutines enter as one batch. The
            // batch is looked up on the calling goroutine, not on the M: see beginBatch.
            G self = Carrier.gOf(Thread.currentThread());
            if (self != null && self.pollBatch != null) {
                self.pollBatch.add(task);
                return;
            }
            if (task == m.curTask) {
                // Self-resubmission from the carrier after the task yielded: Thread.yield, a park
                // that was unparked while parking, or gosched/preemption.
                if (m.goschedGlobal) {
                    m.goschedGlobal = false;
                    globrunqputAndWake(task);
                    return;
                }
                P p = ownerEnter(m);
                if (p == null) {
                    globrunqputAndWake(task);
                    return;
                }
                runqput(p, task, false);
                ownerExit(m, p);
                return;
            }
            P p = ownerEnter(m);
            if (p != null) {
                // Go's ready()/newproc: the woken goroutine runs next on this P (or, asked by
                // readyAfterRunnable, after the goroutines already runnable here).
                int mode = m.readyMode;
                runqput(p, task, mode != M.READY_TAIL);
                ownerExit(m, p);
                if (mode == M.READY_NEXT) {
                    wakep();
                }
                return;
            }
        }
        if (Thread.currentThread() == batchingThread) {
            // The netpoll thread inside a turn: it injects the whole batch at the turn's end.
            injectBatch.add(task);
            return;
        }
        globrunqputAndWake(task);
    }

    /**
     * Called by a poller thread that is not an M (a {@link NetpollThread}) on itself, before its
     * first turn: from then on, tasks it makes runnable ({@code G.ready} unparks a virtual
     * thread, and the JDK calls {@link #execute} on the unparking thread) are appended to
     * {@code batch} instead of queueing globally one by one. The poller hands the batch to
     * {@link #injectglist} at the end of each turn (Go's netpoll result list). Only the calling
     * thread's executes are affected; call once per scheduler.
     */
    public void batchExecutesOf(Thread self, TaskBatch batch) {
        if (self != Thread.currentThread()) {
            throw new IllegalStateException("batchExecutesOf: a poller thread registers itself");
        }
        if (batchingThread != null) {
            throw new IllegalStateException("batchExecutesOf: runtime '" + name + "' already has a poller thread");
        }
        injectBatch = batch; // before batchingThread: program order on the only thread that reads both
        batchingThread = self;
    }

    /**
     * Called by a poll goroutine ({@link ProcNetpoll}) before it polls its loop: until
     * {@link #endBatch}, the goroutines it readies are appended to {@code batch} instead of
     * each taking the runnext slot. Returns the token to hand to {@code endBatch}, or null
     * outside a goroutine on an M of this runtime (then nothing is batched).
     *
     * <p>The batch belongs to the goroutine ({@link G#pollBatch}), not to the M, and only the
     * goroutine itself reads or writes it. A poll goroutine may park inside Netty (a contended
     * lock), or yield on its way out of a blocking turn, and end its turn on another M, while a
     * second poll goroutine begins a turn on the first M. A batch kept on the M would let the
     * first goroutine's end clear it from the other M while the second one's turn is open,
     * leaving the M "batching" with no batch, and a goroutine readied then would be marked
     * unparked and never queued ({@code PollBatchOwnershipTest}).
     */
    public Object beginBatch(TaskBatch batch) {
        G g = G.current();
        if (g == null || g.sched != this) {
            return null;
        }
        g.pollBatch = batch;
        return g;
    }

    /**
     * Ends {@link #beginBatch} and makes the batch runnable ({@link #injectglist}), from
     * whichever M the goroutine runs on now.
     */
    public void endBatch(Object token, TaskBatch batch) {
        if (token instanceof G g) {
            g.pollBatch = null;
        }
        // Go's findRunnable after netpoll: the polling M runs the first readied goroutine itself
        // and injects the rest. Here the poller is a goroutine about to park, so the first goes
        // to this P's runnext: no other M has to wake for it.
        M cur = Carrier.currentM();
        if (!batch.isEmpty() && cur != null && cur.sched == this) {
            P p = ownerEnter(cur);
            if (p != null) {
                runqput(p, batch.pop(), true);
                ownerExit(cur, p);
            }
        }
        injectglist(batch);
    }

    /**
     * {@link G#ready} for a goroutine the caller's M runs next anyway: a per-P poll goroutine
     * readied by {@code findRunnable}, or by a goroutine about to park for the I/O it just
     * requested. It takes this P's runnext like any ready, without {@code wakep}: no M is started
     * to spin for it. Elsewhere (not on an M of this runtime) it is a plain ready.
     */
    public void readyHere(G g) {
        readyAs(g, M.READY_HERE);
    }

    /**
     * {@link G#ready} onto the tail of this P's local queue, without {@code wakep}: {@code g}
     * runs after every goroutine already runnable here. For a per-P poll goroutine wanted by a
     * goroutine that just handed the loop a write: the other runnable goroutines hand theirs
     * over first, and one turn of the loop sends them all (one poll, one switch, not one per
     * write). Elsewhere (not on an M of this runtime) it is a plain ready.
     */
    public void readyAfterRunnable(G g) {
        readyAs(g, M.READY_TAIL);
    }

    /** {@code g.ready()} with this M's {@link M#readyMode} set to {@code mode} for its execute. */
    private void readyAs(G g, int mode) {
        M m = Carrier.currentM();
        if (m == null || m.sched != this) {
            g.ready();
            return;
        }
        int was = m.readyMode;
        m.readyMode = mode;
        try {
            g.ready();
        } finally {
            m.readyMode = was;
        }
    }

    /** The id of the P the caller runs on, or -1 outside an M of this runtime holding a P. */
    public int currentPid() {
        M m = Carrier.currentM();
        P p = m == null || m.sched != this ? null : m.p;
        return p == null ? -1 : p.id;
    }

    /**
     * The runtime's {@link NetpollThread}, started by {@code start} on first use (one per
     * runtime). If two callers race, one poller wins and the other's is shut down. Go starts
     * its netpoller lazily too ({@code netpollGenericInit} on the first network operation).
     *
     * @throws RejectedExecutionException when the runtime is closed (the new poller is shut down)
     */
    public NetpollThread netpollThread(Supplier<? extends NetpollThread> start) {
        NetpollThread np = netpollThread.get();
        if (np != null) {
            return np;
        }
        if (life.closed) {
            throw new RejectedExecutionException("gmp4j runtime '" + name + "' is closed: cannot start its network poller");
        }
        NetpollThread mine = start.get();
        if (!netpollThread.compareAndSet(null, mine)) {
            mine.shutdown(1_000);
            return netpollThread.get();
        }
        if (mine instanceof ProcNetpoll pn) {
            procNetpoll = pn;
        }
        // close() stores closed and then reads netpollThread; we stored netpollThread and now
        // read closed: both volatile, so at least one of us sees the other and shuts it down
        // (shutdown is idempotent).
        if (life.closed) {
            mine.shutdown(1_000);
            throw new RejectedExecutionException("gmp4j runtime '" + name + "' is closed: cannot start its network poller");
        }
        return mine;
    }

    /** The attached per-P poller, or null. */
    ProcNetpoll procNetpoll() {
        return procNetpoll;
    }

    /** The attached {@link NetpollThread}, or null. */
    public NetpollThread netpollThread() {
        return netpollThread.get();
    }

    /**
     * Takes the right to do owner operations on the caller's P. In scheduler code the M already
     * holds it ({@code RUNNING}); from task code it moves {@code USER -> RUNNING} by CAS so
     * sysmon cannot hand the P off mid-operation. Returns null if the M has no P (it lost it).
     */
    P ownerEnter(M m) {
        P p = m.p;
        if (p == null) {
            return null;
        }
        if (m.curTask == null) {
            return p; // scheduler code: status is RUNNING and only we can change it
        }
        long e = m.epoch;
        if (p.casStatus(P.pack(e, P.USER), P.pack(e, P.RUNNING))) {
            return p;
        }
        long s = p.status();
        if (P.epoch(s) != e || P.state(s) == P.IDLE) {
            m.p = null; // sysmon handed the P off; this M now runs its goroutine without a P
        }
        return null;
    }

    void ownerExit(M m, P p) {
        if (m.curTask != null) {
            // store-release: hands the P back to "running user code", where sysmon may retake it
            p.srStatus(P.pack(m.epoch, P.USER));
        }
    }

    /** Go's runqput, with runqputslow's overflow to the global queue. Owner only. */
    void runqput(P p, Runnable task, boolean next) {
        if (p.runq.put(task, next, overflowToGlobal, p.overflowScratch)) {
            p.overflows++;
        }
    }

    private void globrunqputAndWake(Runnable task) {
        lock.lock();
        try {
            runq.put(task);
        } finally {
            lock.unlock();
        }
        wakep();
    }

    /** Go's globrunqputbatch. */
    void globrunqputbatch(Runnable[] batch, int n) {
        lock.lock();
        try {
            runq.putBatch(batch, 0, n);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Go's globrunqget: takes a fair share of the global queue (at most {@code max} if > 0, at
     * most half a local ring) into {@code p}'s local queue and returns one task. Caller holds
     * the lock and owns {@code p}.
     */
    Runnable globrunqget(P p, int max) {
        int sz = runq.size();
        if (sz == 0) {
            return null;
        }
        int n = Math.min(sz, sz / gomaxprocs + 1);
        if (max > 0 && n > max) {
            n = max;
        }
        if (n > runqCapacity / 2) {
            n = Math.max(1, runqCapacity / 2);
        }
        // One batch out of the global ring and one into the local one (a single tail release)
        // instead of a poll and a put per task. The local ring is empty whenever n > 1 is asked
        // for (findRunnable found nothing local); should some not fit, they go back to the
        // global head, oldest first, so they stay ahead of tasks queued after them.
        Runnable[] batch = p.overflowScratch; // capacity/2 + 1 slots, n <= capacity/2
        int got = runq.pollBatch(batch, n);
        Runnable r = batch[0];
        int left = p.runq.putBatch(batch, 1, got - 1);
        if (left > 0) {
            runq.putHeadBatch(batch, got - left, left);
        }
        Arrays.fill(batch, 0, got, null);
        return r;
    }

    /**
     * Go's injectglist: makes a batch of tasks (one netpoll turn) runnable at once. Without a P,
     * all go to the global queue and an M is started for each idle P; with one, as many as there
     * are idle Ps go global (with an M each) and the rest to the local queue.
     */
    public void injectglist(TaskBatch batch) {
        int n = batch.size();
        if (n == 0) {
            return;
        }
        injections.add(n);
        Runnable[] items = batch.array();
        M m = Carrier.currentM();
        P p = (m != null && m.sched == this) ? ownerEnter(m) : null;
        if (p == null) {
            lock.lock();
            try {
                runq.putBatch(items, 0, n);
            } finally {
                lock.unlock();
            }
            batch.clear();
            startIdle(n);
            return;
        }
        int toGlobal = Math.min(n, npidle);
        if (toGlobal > 0) {
            lock.lock();
            try {
                runq.putBatch(items, 0, toGlobal);
            } finally {
                lock.unlock();
            }
        }
        int left = p.runq.putBatch(items, toGlobal, n - toGlobal);
        if (left > 0) {
            lock.lock();
            try {
                runq.putBatch(items, n - left, left);
            } finally {
                lock.unlock();
            }
        }
        ownerExit(m, p);
        batch.clear();
        startIdle(toGlobal);
    }

    private void startIdle(int n) {
        for (; n > 0 && npidle != 0; n--) {
            P pp = pidlegetLocked();
            if (pp == null) {
                break;
            }
            startm(pp, false, false);
        }
    }

}
