package io.gmp4j.runtime;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * A processor: Go's {@code p}. Holding a P is the right to run goroutines; there are exactly
 * GOMAXPROCS of them in {@code Scheduler.allp} (see {@link ProcResize} for how that changes). A P owns a local run queue with a runnext slot, a timer heap, the
 * scheduling tick counters sysmon watches, and the preempt flag goroutines check at safe points.
 *
 * <h2>Status and ownership</h2>
 * {@code status} packs an ownership epoch with the state: {@code epoch << 8 | state}. The epoch
 * grows each time an M acquires the P, so an M that lost its P can never mistake the P's new
 * life for its own (no ABA between two owners).
 * <ul>
 *   <li>{@link #IDLE}: on the idle list, no M.</li>
 *   <li>{@link #RUNNING}: its M is in scheduler code or in an owner operation; nobody else may
 *       change the status.</li>
 *   <li>{@link #USER}: its M runs a task (goroutine code). The M takes the P back to
 *       {@code RUNNING} by CAS for every owner operation; sysmon may CAS {@code USER -> IDLE}
 *       to hand the P off from a goroutine that ignores preemption (a pinned or CPU-bound one).</li>
 *   <li>{@link #SYSCALL}: its goroutine is inside {@code Syscall.blocking}; the first CAS wins:
 *       the goroutine's fast exit ({@code SYSCALL -> USER}) or sysmon's retake
 *       ({@code SYSCALL -> IDLE}).</li>
 *   <li>{@link #GCSTOP}: stopped by a stop-the-world ({@link ProcResize}); no M owns it and
 *       nothing but the stopping thread changes it until the world starts again.</li>
 *   <li>{@link #DEAD}: the runtime has closed, or GOMAXPROCS shrank below this P's id.</li>
 * </ul>
 * This is Go's {@code _Psyscall} protocol applied to running user code as well, because the JDK
 * cannot preempt a continuation: the only way to take a P from a goroutine that does not reach
 * a safe point is to let its M keep running without the P.
 */
final class P {
    static final int IDLE = 0;
    static final int RUNNING = 1;
    static final int USER = 2;
    static final int SYSCALL = 3;
    static final int DEAD = 4;
    static final int GCSTOP = 5;

    private static final VarHandle STATUS;
    private static final VarHandle SCHEDTICK;
    private static final VarHandle SYSCALLTICK;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            STATUS = l.findVarHandle(P.class, "status", long.class);
            SCHEDTICK = l.findVarHandle(P.class, "schedtick", int.class);
            SYSCALLTICK = l.findVarHandle(P.class, "syscalltick", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final int id;
    /**
     * The local run queue. Replaced only while the world is stopped ({@link ProcResize}: a
     * queue built without thieves gets a stealable copy when GOMAXPROCS grows from 1). Every
     * later owner acquires this P after the stopping thread's unlock or its volatile stores,
     * so it reads the new queue; other threads only read sizes, as hints, from either.
     */
    RunQueue runq;
    final Timers timers;

    private volatile long status; // epoch << 8 | state

    /** The M that owns this P, or null when idle. Written under the owner's authority. */
    volatile M m;

    /**
     * Incremented on every scheduler call that does not inherit a time slice. Written by the
     * owner with release stores; read by sysmon (retake) and every 61st check.
     */
    private int schedtick;
    /** Incremented on every syscall; read by sysmon. */
    private int syscalltick;

    /** Set by sysmon when the P has run one goroutine too long; cleared by the owner. */
    volatile boolean preempt;

    /** Owner only: consecutive runs that inherited a time slice through runnext. */
    int runnextChain;
    /** Owner only: a fairness pick passed over a just-yielded task; the next schedule makes it. */
    boolean fairnessOwed;

    // Counters, each written by the owner only (plain), read racily for stats.
    long runnextHits;
    long runnextCapped;
    long steals;
    long stolenTasks;
    long overflows;
    long fairnessPicks;
    long tasksRun;
    /**
     * {@link #tasksRun} after the last netpoll(0) on this P that readied a goroutine (counting
     * that goroutine's own run): findRunnable polls again only once something else ran here.
     * Owner only.
     */
    long netpollRan = -1;

    // Scratch buffers, owner only.
    final Runnable[] overflowScratch;
    final int[] stolenScratch = new int[1];
    final RunQueue.Got got = new RunQueue.Got();

    P(int id, int runqCapacity, boolean stealable, Scheduler sched) {
        this.id = id;
        this.runq = new RunQueue(runqCapacity, stealable);
        this.overflowScratch = new Runnable[runqCapacity / 2 + 1];
        this.timers = new Timers(this, sched);
    }

    static int state(long status) {
        return (int) (status & 0xff);
    }

    static long epoch(long status) {
        return status >>> 8;
    }

    static long pack(long epoch, int state) {
        return epoch << 8 | state;
    }

    long status() {
        return status;
    }

    int state() {
        return state(status);
    }

    boolean casStatus(long expect, long update) {
        return STATUS.compareAndSet(this, expect, update);
    }

    // volatile store: the owner publishes a new state; a StoreLoad fence is needed where the
    // owner re-reads shared state right after (acquirep), so this is not a release store.
    void setStatus(long s) {
        status = s;
    }

    // store-release: the owner moves RUNNING -> USER just before running a task; sysmon only
    // needs to eventually see it, and nothing the owner reads next depends on sysmon's view.
    void srStatus(long s) {
        STATUS.setRelease(this, s);
    }

    int schedtick() {
        return (int) SCHEDTICK.getOpaque(this);
    }

    // store-release: sysmon reads it racily to tell a stuck P from a busy one
    void incSchedtick() {
        SCHEDTICK.setRelease(this, schedtick + 1);
    }

    int syscalltick() {
        return (int) SYSCALLTICK.getOpaque(this);
    }

    void incSyscalltick() {
        SYSCALLTICK.setRelease(this, syscalltick + 1);
    }

    @Override
    public String toString() {
        return "P" + id + "[" + stateName(state()) + "]";
    }

    static String stateName(int s) {
        return switch (s) {
            case IDLE -> "idle";
            case RUNNING -> "running";
            case USER -> "user";
            case SYSCALL -> "syscall";
            case DEAD -> "dead";
            case GCSTOP -> "gcstop";
            default -> "?" + s;
        };
    }
}
