package io.gmp4j.runtime;

import java.util.concurrent.locks.LockSupport;

/**
 * A machine: Go's {@code m}, a platform thread that runs the scheduler loop and carries the
 * goroutines it runs (it is their virtual threads' carrier). An M needs a P to run goroutines.
 *
 * <p>Fields without a memory-ordering note are touched only by the M's own thread.
 */
final class M extends Thread {
    final Scheduler sched;
    final int mid;
    /** True for an M created to take a P that sysmon handed off. */
    final boolean forHandoff;

    /** The P this M holds, or null. Only this thread reads or writes it. */
    P p;
    /** The ownership epoch this M holds {@link #p} with (see {@link P}). */
    long epoch;
    /** The P handed to this M by startm before it is woken; read after the wake-up. */
    volatile P nextp;
    /** Go's m.spinning: looking for work with a P while holding an nmspinning count. */
    boolean spinning;
    /** Set by startm together with nextp. */
    volatile boolean nextSpinning;
    /** The task this M is running (null in scheduler code): tells self-resubmission apart. */
    Runnable curTask;
    /** Set by Go.gosched() and preemption: the yielding goroutine goes to the global queue. */
    boolean goschedGlobal;
    /**
     * The task this M just put on the global queue by a yield (gosched, preemption), until its
     * next findRunnable reads it: that schedule's fairness pick passes over it (see there).
     */
    Runnable yieldedGlobal;
    /**
     * The landing of the one {@code g.ready()} running on this M inside
     * {@link Placement#ready(G, Object)} (a {@link io.gmp4j.runtime.spi.Landing} or a netpoll
     * result {@link io.gmp4j.runtime.spi.TaskBatch}), for the {@code execute} that ready's
     * unpark calls back; null otherwise (Go's ready: runnext and {@code wakep}). Only that
     * method writes it and only {@code execute} reads it.
     */
    Object readyTo;
    /** The list {@link io.gmp4j.runtime.spi.Netpoll#netpoll} fills for findRunnable; reused, empty between calls. */
    final io.gmp4j.runtime.spi.TaskBatch netpollList = new io.gmp4j.runtime.spi.TaskBatch();
    /**
     * Go's m.locks: while above zero the goroutine on this M holds a runtime-internal spin lock
     * that an M may need, so safe points do not yield it. Written only by the goroutine running
     * on this M (which cannot move to another M while it is above zero: it never parks then).
     */
    int locks;
    /** Counted among the process's running Ms ({@link Checkdead}). Guarded by the runtime's lock. */
    boolean counted;
    /** Whether the task returned by findRunnable inherits the time slice. */
    boolean inheritTime;
    /** Pinned mode: the CPU this thread is pinned to, or -1 (see Scheduler.pinToCpuOf). */
    int pinnedCpu = -1;
    /** Per-M random state for steal order (xorshift). */
    int rand;
    /** Go's m.goidcache/goidcacheend: ids reserved in batches, to spare a shared atomic per go(). */
    long goidcache;
    long goidcacheEnd;
    private static final java.lang.invoke.VarHandle SPAWNED;
    private static final java.lang.invoke.VarHandle EXITED;

    static {
        try {
            java.lang.invoke.MethodHandles.Lookup l = java.lang.invoke.MethodHandles.lookup();
            SPAWNED = l.findVarHandle(M.class, "spawned", long.class);
            EXITED = l.findVarHandle(M.class, "exited", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * Goroutines started, and ended, by code running on this M: Go's per-P goroutine counts.
     * Written only by this M's thread with opaque stores (a plain move on x86, never torn,
     * eventually visible), summed by readers with opaque loads: no shared atomic per goroutine.
     */
    private long spawned;
    private long exited;
    /** The scheduling latencies sampled on this M ({@link SchedLatency}). */
    final SchedLatency.Counts latency = new SchedLatency.Counts();
    /** Goroutines started by code on this M (registry segment; null when the registry is off). */
    GoroutineRegistry.Segment allgs;

    /** Go's m.park note: set by notewakeup, consumed by notesleep. */
    private volatile boolean notified;

    M(Scheduler sched, int mid, boolean forHandoff) {
        super(null, null, sched.name + "-m" + mid, 0, false);
        this.sched = sched;
        this.mid = mid;
        this.forHandoff = forHandoff;
        Fastrand seeded = sched.seeded;
        this.rand = seeded != null ? seeded.mRand(mid) : 0x9E3779B9 * (mid + 1) | 1;
        setDaemon(true);
    }

    int nextRandom() {
        int x = rand;
        x ^= x << 13;
        x ^= x >>> 17;
        x ^= x << 5;
        rand = x;
        return x & Integer.MAX_VALUE;
    }

    void incSpawned() {
        SPAWNED.setOpaque(this, (long) SPAWNED.getOpaque(this) + 1);
    }

    void incExited() {
        EXITED.setOpaque(this, (long) EXITED.getOpaque(this) + 1);
    }

    long spawned() {
        return (long) SPAWNED.getOpaque(this);
    }

    long exited() {
        return (long) EXITED.getOpaque(this);
    }

    /** Go's notesleep on m.park. Returns after {@link #notewakeup}. */
    void notesleep() {
        while (!notified) {
            LockSupport.park(this);
        }
        notified = false;
    }

    /** Go's notewakeup on m.park. Any thread. */
    void notewakeup() {
        notified = true;
        LockSupport.unpark(this);
    }

    @Override
    public void run() {
        sched.mstart(this);
    }
}
