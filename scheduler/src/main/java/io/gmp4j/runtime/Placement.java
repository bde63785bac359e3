package io.gmp4j.runtime;

import io.gmp4j.runtime.spi.Landing;
import io.gmp4j.runtime.spi.Netpoll;
import io.gmp4j.runtime.spi.NetpollHost;
import io.gmp4j.runtime.spi.TaskBatch;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.function.Function;

/**
 * The executor entry: where a runnable task lands. {@link #execute} (the JDK's callback when a
 * goroutine becomes runnable) chooses runnext, the local tail or the global queue by who calls,
 * or the {@link Landing} a {@link #ready(G, Object)} chose; the netpoll seam's scheduler side
 * (poll turns that collect the goroutines one poll readied and inject them as one list, Go's
 * injectglist; the attach); the global queue's put and get.
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
            // A poll goroutine inside a poll turn: its readied goroutines enter as one batch.
            // The batch is looked up on the calling goroutine, not on the M: see beginTurn.
            G self = Carrier.gOf(Thread.currentThread());
            if (self != null && self.turnBatch != null) {
                SchedTrace.ready(this, task, io.gmp4j.runtime.events.GoroutineReadyEvent.POLL_BATCH);
                self.turnBatch.add(task);
                return;
            }
            if (task == m.curTask) {
                // Self-resubmission from the carrier after the task yielded: Thread.yield, a park
                // that was unparked while parking, or gosched/preemption.
                if (m.goschedGlobal) {
                    m.goschedGlobal = false;
                    m.yieldedGlobal = task;
                    SchedTrace.ready(this, task, io.gmp4j.runtime.events.GoroutineReadyEvent.YIELD_GLOBAL);
                    globrunqputAndWake(task);
                    return;
                }
                P p = ownerEnter(m);
                if (p == null) {
                    SchedTrace.ready(this, task, io.gmp4j.runtime.events.GoroutineReadyEvent.YIELD_GLOBAL);
                    globrunqputAndWake(task);
                    return;
                }
                SchedTrace.ready(this, task, io.gmp4j.runtime.events.GoroutineReadyEvent.YIELD_LOCAL);
                runqput(p, task, false);
                ownerExit(m, p);
                return;
            }
            // The landing ready(g, to) chose for the g.ready() it is inside (this execute is
            // that ready's unpark calling back on the same thread); null for every other ready.
            Object to = m.readyTo;
            if (to instanceof TaskBatch list) {
                SchedTrace.ready(this, task, io.gmp4j.runtime.events.GoroutineReadyEvent.NETPOLL);
                list.add(task); // a netpoll result: the M that asked runs it
                return;
            }
            P p = ownerEnter(m);
            if (p != null) {
                // Go's ready()/newproc: the woken goroutine runs next on this P.
                if (to == null) {
                    SchedTrace.ready(this, task, io.gmp4j.runtime.events.GoroutineReadyEvent.RUNNEXT);
                    runqput(p, task, true);
                    ownerExit(m, p);
                    wakep();
                    return;
                }
                land(m, p, task, (Landing) to);
                return;
            }
        }
        if (Thread.currentThread() == turnThread) {
            // The poller thread inside a turn: it injects the whole batch at the turn's end.
            SchedTrace.ready(this, task, io.gmp4j.runtime.events.GoroutineReadyEvent.POLL_BATCH);
            turnThreadBatch.add(task);
            return;
        }
        SchedTrace.ready(this, task, io.gmp4j.runtime.events.GoroutineReadyEvent.GLOBAL);
        globrunqputAndWake(task);
    }

    /**
     * {@link #execute} for a plain task (not a goroutine: those land through
     * {@code NetpollHost.ready}) placed at {@code where} on the calling M's P. Off an M of this
     * runtime, or on one without its P, it is a plain {@code execute}: the global queue and
     * {@code wakep}.
     *
     * @throws RejectedExecutionException when this runtime is closed
     */
    public void execute(Runnable task, Landing where) {
        M m = Carrier.currentM();
        if (m != null && m.sched == this && m.curTask != null && !life.closed) {
            P p = ownerEnter(m);
            if (p != null) {
                land(m, p, task, where);
                return;
            }
        }
        execute(task);
    }

    /** Puts {@code task} on {@code p}, which {@code m} entered, at {@code where}; leaves it. */
    private void land(M m, P p, Runnable task, Landing where) {
        SchedTrace.ready(this, task, where == Landing.LOCAL_TAIL ? io.gmp4j.runtime.events.GoroutineReadyEvent.LOCAL
                : io.gmp4j.runtime.events.GoroutineReadyEvent.RUNNEXT);
        boolean alone = p.runq.isEmpty();
        runqput(p, task, where != Landing.LOCAL_TAIL);
        ownerExit(m, p);
        if (where == Landing.RUNNEXT || (where == Landing.HANDOFF && !alone)) {
            wakep();
        }
    }

    // =====================================================================================
    // The netpoll seam (io.gmp4j.runtime.spi): what NetpollHost does, and the attach
    // =====================================================================================

    /**
     * {@code g.ready()} landing at {@code to}: a {@link Landing} or a netpoll result list
     * ({@link TaskBatch}). {@code G.ready} unparks a virtual thread, and the JDK's unpark calls
     * {@link #execute} synchronously on this thread with only the task, no argument: so the
     * landing rides on this M for exactly that call, in {@link M#readyTo}, which only this
     * method writes (and restores, in the finally) and only {@code execute} reads. The M cannot
     * change in between: the caller stays mounted through {@code ready} (it does not park).
     */
    void ready(G g, Object to) {
        M m = Carrier.currentM();
        if (m == null || m.sched != this) {
            g.ready();
            return;
        }
        Object was = m.readyTo;
        m.readyTo = to;
        try {
            // G.ready -> LockSupport.unpark -> the JDK calls execute(task) here, synchronously,
            // on this thread, with the task as its only argument: execute reads m.readyTo. (A g
            // still on its way to park gets a permit instead and later resubmits itself from its
            // own carrier, as a self-resubmission: no landing applies to it.)
            g.ready();
        } finally {
            m.readyTo = was;
        }
    }

    /**
     * {@code NetpollHost.beginTurn}: from a poll goroutine of this runtime, the batch is the
     * goroutine's ({@link G#turnBatch}), not the M's, and only the goroutine itself reads or
     * writes it. A poll goroutine may park inside Netty (a contended lock), or yield on its way
     * out of a blocking turn, and end its turn on another M, while a second poll goroutine
     * begins a turn on the first M. A batch kept on the M would let the first goroutine's end
     * clear it from the other M while the second one's turn is open, leaving the M "batching"
     * with no batch, and a goroutine readied then would be marked unparked and never queued
     * ({@code PollBatchOwnershipTest}). From a thread that is not an M, the thread registers
     * itself once as this runtime's poller thread ({@link #turnThread}). Returns the token for
     * {@link #endTurn}, or null (nothing is batched) from a goroutine of another runtime or an M.
     */
    Object beginTurn(TaskBatch turn) {
        Thread me = Thread.currentThread();
        if (me.isVirtual()) {
            G g = Carrier.gOf(me);
            if (g == null || g.sched != this) {
                return null;
            }
            g.turnBatch = turn;
            return g;
        }
        if (Carrier.currentM() != null) {
            return null;
        }
        if (turnThread != me) {
            if (turnThread != null) {
                throw new IllegalStateException("beginTurn: runtime '" + name + "' already has a poller thread");
            }
            turnThreadBatch = turn; // before turnThread: program order on the only thread that reads both
            turnThread = me;
        } else if (turnThreadBatch != turn) {
            throw new IllegalStateException("beginTurn: a poller thread keeps one batch for all its turns");
        }
        return me;
    }

    /**
     * {@code NetpollHost.endTurn}: ends {@link #beginTurn} and makes the batch runnable, from
     * whichever M the goroutine runs on now.
     */
    void endTurn(Object token, TaskBatch turn) {
        if (token instanceof G g) {
            g.turnBatch = null;
        }
        // Go's findRunnable after netpoll: the polling M runs the first readied goroutine itself
        // and injects the rest. Here the poller is a goroutine about to park, so the last one
        // readied goes to this P's runnext: no other M has to wake for it.
        M cur = Carrier.currentM();
        SchedTrace.netpollBatchHere(this, turn.size(), io.gmp4j.runtime.events.NetpollBatchEvent.TURN);
        if (!turn.isEmpty() && cur != null && cur.sched == this) {
            P p = ownerEnter(cur);
            if (p != null) {
                runqput(p, turn.pop(), true);
                ownerExit(cur, p);
            }
        }
        injectglist(turn);
    }

    /** The id of the P the caller runs on, or -1 outside an M of this runtime holding a P. */
    int currentPid() {
        M m = Carrier.currentM();
        P p = m == null || m.sched != this ? null : m.p;
        return p == null ? -1 : p.id;
    }

    /**
     * Attaches this runtime's network poller on first use, one per runtime, and returns the
     * attached one: {@code start} gets the {@link NetpollHost} the poller talks to the scheduler
     * through. If two callers race, one poller wins and the other's is shut down. Go starts its
     * netpoller lazily too ({@code netpollGenericInit} on the first network operation). For
     * gmp4j's netpoll module (see {@link io.gmp4j.runtime.spi}), not a user API.
     *
     * @throws RejectedExecutionException when the runtime is closed (the new poller is shut down)
     */
    public Netpoll attachNetpoll(Function<? super NetpollHost, ? extends Netpoll> start) {
        Netpoll np = netpoll;
        if (np != null) {
            return np;
        }
        if (life.closed) {
            throw new RejectedExecutionException("gmp4j runtime '" + name + "' is closed: cannot start its network poller");
        }
        Netpoll mine = start.apply(new SchedNetpollHost(self()));
        if (!NETPOLL.compareAndSet(this, null, mine)) {
            mine.shutdown(1_000);
            return netpoll;
        }
        // close() stores closed and then reads netpoll; we stored netpoll and now read closed:
        // both volatile, so at least one of us sees the other and shuts it down (shutdown is
        // idempotent).
        if (life.closed) {
            mine.shutdown(1_000);
            throw new RejectedExecutionException("gmp4j runtime '" + name + "' is closed: cannot start its network poller");
        }
        return mine;
    }

    /** The attached network poller, or null (see {@link #attachNetpoll}). Not a user API. */
    public Netpoll attachedNetpoll() {
        return netpoll;
    }

    private static final VarHandle NETPOLL;

    static {
        try {
            NETPOLL = MethodHandles.lookup().findVarHandle(SchedulerState.class, "netpoll", Netpoll.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
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
            SchedTrace.overflow(this, p);
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
    void injectglist(TaskBatch batch) {
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
