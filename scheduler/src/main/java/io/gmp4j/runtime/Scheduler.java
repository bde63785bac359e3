package io.gmp4j.runtime;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * The goroutine scheduler: a port of Go's {@code runtime/proc.go} onto JDK virtual threads.
 *
 * <h2>G, M, P</h2>
 * A G is a goroutine (a virtual thread plus its {@link G} record), an M a platform thread that
 * runs the scheduler loop and carries goroutines, a P a processor: the right to run Go code,
 * with a local run queue. There are exactly GOMAXPROCS Ps; Ms come and go. The JDK calls
 * {@link #execute} whenever a goroutine becomes runnable; where the task lands depends on who
 * calls (DESIGN.md at the repository root): a goroutine that starts or wakes another puts it
 * in its own P's runnext slot (Go's newproc and ready), an M re-submitting the task it just ran puts it at its local
 * tail (or the global queue after {@code gosched}), and any other thread (timer threads, the
 * JDK's unparker, Netty, platform threads) uses the global queue and calls {@link #wakep}.
 * The run queues hold plain {@code Runnable}s, so tasks that are not goroutines (behaviour
 * actors) run on the Ms the same way, without a virtual thread.
 *
 * <h2>Worker thread parking/unparking (from proc.go)</h2>
 * We need to balance keeping enough running Ms to use the available parallelism against
 * parking excess ones to save CPU. Go rejected (1) centralized scheduler state (would inhibit
 * scalability), (2) direct goroutine handoff to an idle M (thrashes threads and loses
 * locality) and (3) unparking an M on every ready (causes thread state thrashing). Instead an
 * additional M is unparked when work is submitted (this is {@link #wakep}) only if
 * (a) there is an idle P and (b) there are no spinning Ms. A spinning M that finds work stops
 * spinning and calls wakep again ({@link #resetspinning}), so the spinning M count stays small
 * and bursts of work still spread.
 *
 * <p>The race between submission and an M going idle is closed by two sequences:
 * <ul>
 *   <li>submission: 1. put work in a run queue; 2. StoreLoad barrier (the CAS or atomic read
 *       of {@code nmspinning} in wakep after a volatile store); 3. check {@code nmspinning}
 *       and {@code npidle};</li>
 *   <li>spinning to idle: 1. release the P, decrement {@code nmspinning}; 2. StoreLoad
 *       barrier (the atomic decrement); 3. re-check every P's run queue and timers
 *       ({@link #checkRunqsNoP}).</li>
 * </ul>
 * Either the submitter sees no spinning M and starts one, or the M leaving spinning sees the
 * work. A third case needs Go's {@code needspinning}: a submitter whose {@code wakep} took
 * {@code nmspinning} from 0 to 1 but found no idle P. Until it drops that 1 again, every other
 * submitter returns early and every M that releases its P does so without spinning, so without
 * re-checking; the drop happens under the lock that saw no idle P, together with setting
 * {@code needspinning}, and an M about to release its P spins instead while that is set.
 *
 * <h2>What differs from Go, and why</h2>
 * The JDK cannot preempt a continuation, so preemption is cooperative (a flag checked at safe
 * points) and a goroutine that ignores it loses its P: sysmon CASes its P from {@code USER}
 * to {@code IDLE} and hands it to another M (see {@link P}'s status protocol). Runnext
 * inheritance is capped by count ({@link #MAX_RUNNEXT_INHERITS}) because sysmon cannot force
 * the 10 ms slice that bounds it in Go.
 */
public final class Scheduler implements Executor, AutoCloseable {
    /** Go's schedtick % 61: how often the global queue is checked first, for fairness. */
    static final int GLOBAL_QUEUE_INTERVAL = 61;
    /**
     * Runs in a row that may inherit a time slice through runnext before the runnext task has to
     * queue at the tail. Tokio caps its LIFO slot at 3 polls per tick for the same starvation
     * problem; Go relies on its 10 ms time slice instead, which we cannot enforce.
     */
    static final int MAX_RUNNEXT_INHERITS = 3;
    /** Go's stealWork: passes over all Ps; runnext and timers only on the last. */
    static final int STEAL_TRIES = 4;

    final String name;
    /**
     * GOMAXPROCS and the Ps. Written together, under {@link #lock}, only by {@link ProcResize}
     * while the world is stopped; {@code allp} is a new array each time, never changed in
     * place. Lock holders read a matching pair. Readers without the lock (stealers, sysmon,
     * checkdead, the timer and stats scans) read {@code allp} once into a local and use its
     * length: a stale array holds Ps that may since have stopped or died, which costs them a
     * wasted look, because the world's restart hands every P with work an M of its own.
     */
    volatile int gomaxprocs;
    volatile P[] allp;
    /** Steal strides coprime to {@code allp.length} (see {@link #stealWork}); replaced with it. */
    private volatile int[] coprimes;
    /** Go's sched.gcwaiting: a stop-the-world is under way. Written under {@link #lock}. */
    volatile boolean gcwaiting;
    /** GOMAXPROCS changes: the stop-the-world, Go's procresize and the restart. */
    private final ProcResize resize;

    /** Go's sched.lock, which here also guards the global run queue. */
    final SpinLock lock;
    final GlobalRunQueue runq = new GlobalRunQueue();

    // --- idle Ps: guarded by lock; npidle and idlepMask are also read without it.
    /** Room for every P of the current allp; replaced (bigger) under lock by ProcResize. */
    private P[] pidle;
    private int pidleTop;
    private volatile int npidle;
    /**
     * Bit i set when P i is idle; read lock-free by stealers (skip idle Ps). Only grows, under
     * lock with the world stopped, copying the bits; a reader holding the old array reads bits
     * frozen at the stop, a hint like any stale bit.
     */
    private volatile AtomicLongArray idlepMask;
    // idlepMask is written before allp (publishProcs): a reader that saw an allp sees a mask
    // with a bit for each of its Ps.

    // --- Ms: guarded by lock.
    private final ArrayList<M> midle = new ArrayList<>();
    private int nmidle;
    private int mcount;
    private int mHandoffCount;
    private final List<M> allm = new ArrayList<>();
    /** Copy of allm for lock-free readers (goroutine counts); replaced under lock. */
    private volatile M[] allmSnapshot = new M[0];
    final int maxThreads;
    final int maxHandoffThreads;
    private volatile boolean mCapReported;

    /** Go's sched.nmspinning. */
    final AtomicInteger nmspinning = new AtomicInteger();
    /**
     * Go's sched.needspinning: a {@link #wakep} found work to hand out but no idle P, so the
     * next M that is about to drop its P must spin instead (see the release in
     * {@link #findRunnable}). Set and read under {@link #lock}; cleared by {@link #becomeSpinning}.
     */
    private volatile boolean needspinning;

    // --- goroutines
    private final AtomicLong goidgen = new AtomicLong();
    /** Go's _GoidCacheBatch. */
    private static final int GOID_CACHE_BATCH = 16;
    /** Goroutines started from threads that are not Ms (the rest are counted per M). */
    private final LongAdder spawnedExternally = new LongAdder();
    /** Goroutines that ended on a thread that is not one of our Ms (a closed runtime). */
    private final LongAdder exitedExternally = new LongAdder();
    /** Live goroutines for the dump; null when the registry is off. */
    private final GoroutineRegistry allgs;
    private final java.util.function.LongSupplier liveCount = this::numGoroutine;
    /** Pending runtime timers over all Ps. */
    final AtomicInteger ntimers = new AtomicInteger();
    /**
     * Threads that are not goroutines of any runtime, blocked on a gmp4j primitive (a channel, a
     * WaitGroup, ...). Global, not per runtime: a channel belongs to no runtime, and such a
     * thread may still wake goroutines of any runtime, so no runtime may call that a deadlock.
     */
    static final AtomicInteger platformWaiters = new AtomicInteger();
    /** Goroutines inside Syscall.blocking. */
    final AtomicInteger nsyscall = new AtomicInteger();

    // --- netpoll / timer sleep (Go's sched.lastpoll, sched.pollUntil)
    final Netpoller netpoller;
    private final boolean realNetpoller;
    /** 0 while an M is blocked in netpoller.poll; otherwise the time of the last poll. */
    private final AtomicLong lastpoll = new AtomicLong(System.nanoTime());
    /** Deadline of the blocked poll, 0 for none. */
    private volatile long pollUntil;
    /** The poller on a thread of its own (netpoll module), attached on first use; null until then. */
    private final AtomicReference<NetpollThread> netpollThread = new AtomicReference<>();
    /** The attached poller when it polls per P (option (b)); null otherwise. */
    private volatile ProcNetpoll procNetpoll;
    /**
     * The poller thread whose {@link #execute} calls are collected into {@link #injectBatch}
     * instead of queueing one by one ({@link #batchExecutesOf}). Plain fields: only that thread
     * writes them (once, before its first turn) and only it can find itself here; any other
     * thread compares its own identity with whatever value it reads (null or the poller
     * thread), which is never equal, so a stale read cannot mislead it.
     */
    private Thread batchingThread;
    private TaskBatch injectBatch;

    // --- counters
    final LongAdder handoffs = new LongAdder();
    /** sched_setaffinity calls by Ms moving to their new P's CPU (pinned mode only). */
    private final LongAdder carrierPins = new LongAdder();
    final LongAdder preemptRequests = new LongAdder();
    final LongAdder injections = new LongAdder();
    /** startm calls that woke an idle M or started a new one; stopm calls. */
    private final LongAdder mWakeups = new LongAdder();
    private final LongAdder mSleeps = new LongAdder();
    final LongAdder taskFailures = new LongAdder();

    private final ThreadFactory vtFactory;
    /** The JDK thread container goroutines start in; see GoroutineContainer. */
    private final GoroutineContainer container;
    private final Sysmon sysmon;
    private final int runqCapacity;
    final boolean checkDeadlock;
    final long startNanos = System.nanoTime();
    /** System.nanoTime() as of sysmon's last tick (at most 10 ms old): a cheap clock for dumps. */
    volatile long coarseNanos = startNanos;
    private final AtomicInteger timerRoundRobin = new AtomicInteger();

    /** The public facade (io.gmp4j.GoRuntime) this scheduler belongs to; set once. */
    private volatile Object owner;

    /** The closed flag, on a cache line of its own: read on every execute, written once. */
    private final ClosedFlag life = new ClosedFlag();
    /**
     * Pinned mode: the CPUs the process may use (P i runs on the (i mod n)-th, for every
     * GOMAXPROCS) and the calls that pin; both null when off.
     */
    private final int[] processCpus;
    private final CpuAffinity affinity;
    private volatile boolean pinErrorReported;
    /** Set by Go.main-style runs: deadlocks are only reported while a main goroutine runs. */
    private volatile MainWait mainWait;
    /** Where goroutine panics go; null: printed. See {@link #setPanicHandler}. */
    private volatile java.util.function.ObjLongConsumer<Throwable> panicHandler;

    private final RunQueue.Overflow overflowToGlobal = this::globrunqputbatch;
    /** Overflow for callers that already hold {@link #lock} (the lock is not reentrant). */
    private final RunQueue.Overflow overflowToGlobalLocked = (batch, n) -> runq.putBatch(batch, 0, n);

    /** Configuration for a new scheduler; see {@code io.gmp4j.GoRuntime.Builder}. */
    public record Config(String name, int maxProcs, int maxThreads, int maxHandoffThreads, int runqCapacity,
                         boolean goroutineRegistry, boolean checkDeadlock, long schedtraceMillis,
                         Netpoller netpoller, boolean pinCarriers) {
    }

    /**
     * Starts a scheduler: all Ps idle, no M yet (the first wake-up starts one), sysmon running.
     * Most code builds one through {@code io.gmp4j.GoRuntime.builder()}.
     *
     * @throws IllegalArgumentException on a bad configuration
     * @throws IllegalStateException when the JVM lacks {@code --add-opens java.base/java.lang=ALL-UNNAMED}
     */
    public Scheduler(Config c) {
        Carrier.check();
        if (c.maxProcs() < 1) {
            throw new IllegalArgumentException("GOMAXPROCS must be >= 1, got " + c.maxProcs());
        }
        if (c.maxThreads() < c.maxProcs()) {
            throw new IllegalArgumentException("maxThreads (" + c.maxThreads() + ") must be >= GOMAXPROCS (" + c.maxProcs() + ")");
        }
        this.name = c.name();
        this.gomaxprocs = c.maxProcs();
        this.maxThreads = c.maxThreads();
        this.maxHandoffThreads = c.maxHandoffThreads();
        this.runqCapacity = c.runqCapacity();
        this.checkDeadlock = c.checkDeadlock();
        this.lock = runq.lock;
        this.allgs = c.goroutineRegistry() ? new GoroutineRegistry() : null;
        this.realNetpoller = c.netpoller() != null;
        this.netpoller = c.netpoller() != null ? c.netpoller() : new TimerSleeper();
        P[] ps = new P[gomaxprocs];
        this.pidle = new P[gomaxprocs];
        this.idlepMask = new AtomicLongArray((gomaxprocs + 63) / 64);
        for (int i = 0; i < gomaxprocs; i++) {
            ps[i] = new P(i, runqCapacity, gomaxprocs > 1, this);
        }
        this.allp = ps;
        this.coprimes = coprimes(gomaxprocs);
        this.resize = new ProcResize(this, ps);
        if (c.pinCarriers()) {
            this.affinity = CpuAffinity.load();
            this.processCpus = affinity.processCpus();
        } else {
            this.affinity = null;
            this.processCpus = null;
        }
        this.vtFactory = Carrier.virtualThreadFactory(this);
        this.container = GoroutineContainer.create("gmp4j runtime '" + name + "'",
                () -> allGoroutines().stream().map(G::thread).filter(t -> t != null && t.isAlive()));
        // All Ps start idle; the first wakep starts an M for one of them.
        lock.lock();
        try {
            for (int i = gomaxprocs - 1; i >= 0; i--) {
                pidleput(allp[i]);
            }
        } finally {
            lock.unlock();
        }
        this.sysmon = new Sysmon(this, c.schedtraceMillis());
        sysmon.start();
        Checkdead.register(this);
    }

    static int[] coprimes(int n) {
        List<Integer> list = new ArrayList<>();
        for (int i = 1; i <= n; i++) {
            if (gcd(i, n) == 1) {
                list.add(i);
            }
        }
        return list.stream().mapToInt(Integer::intValue).toArray();
    }

    private static int gcd(int a, int b) {
        while (b != 0) {
            int t = a % b;
            a = b;
            b = t;
        }
        return a;
    }

    // =====================================================================================
    // Goroutines
    // =====================================================================================

    /** The scheduler carrying the calling goroutine or task, or null. */
    public static Scheduler current() {
        M m = Carrier.currentM();
        return m == null ? null : m.sched;
    }

    /**
     * Go's newproc: starts {@code f} as a new goroutine. From a goroutine of this runtime the
     * new goroutine goes to the caller's runnext slot; otherwise to the global queue.
     */
    public G go(Runnable f) {
        return go(Carrier.currentM(), f);
    }

    /**
     * Starts {@code f} in the runtime of the calling goroutine (Go's {@code go} from a goroutine).
     *
     * @return false, doing nothing, when the caller is not running on an M of any runtime
     */
    public static boolean goFromCurrent(Runnable f) {
        M m = Carrier.currentM();
        if (m == null) {
            return false;
        }
        m.sched.go(m, f);
        return true;
    }

    private G go(M m, Runnable f) {
        if (f == null) {
            throw new NullPointerException("go: null function");
        }
        if (life.closed) {
            throw new RejectedExecutionException("gmp4j runtime '" + name + "' is closed: cannot start a goroutine");
        }
        long goid;
        if (m != null && m.sched == this) {
            // Go's goidcache: a batch of ids per M, so go() touches no shared counter. Only the
            // goroutine running on this M reaches here, and it cannot move between the reads.
            if (m.goidcache == m.goidcacheEnd) {
                m.goidcache = goidgen.getAndAdd(GOID_CACHE_BATCH) + 1;
                m.goidcacheEnd = m.goidcache + GOID_CACHE_BATCH;
            }
            goid = m.goidcache++;
            m.incSpawned();
        } else {
            goid = goidgen.incrementAndGet();
            spawnedExternally.increment();
        }
        // No parent id: reading the parent's G is a cache miss per spawn in wide trees.
        G g = new G(goid, this);
        g.fn = f;
        Thread t = vtFactory.newThread(() -> goexit(g));
        g.thread = t;
        Carrier.bindG(t, g); // the thread's uncaught-exception handler is its G: see G.current()
        if (allgs != null) {
            allgs.add(m != null && m.sched == this ? m : null, g, liveCount);
        }
        try {
            container.start(t);
        } catch (RuntimeException e) {
            forget(g);
            throw e;
        }
        // go is a safe point: a goroutine spawning in a loop yields when sysmon asks.
        if (m != null) {
            Syscalls.safePoint(m);
        }
        return g;
    }

    private void goexit(G g) {
        // Take the function out of the G before running it: a dead goroutine's G may stay in
        // the registry (and its thread with it) until a sweep, but what the function captured
        // is garbage as soon as it returns.
        Runnable f = g.fn;
        g.fn = null;
        try {
            f.run();
        } finally {
            forget(g);
        }
    }

    private void forget(G g) {
        if (allgs != null) {
            allgs.remove(g);
        }
        M m = Carrier.currentM();
        if (m != null && m.sched == this) {
            m.incExited();
        } else {
            exitedExternally.increment();
        }
    }

    /** Go's runtime.NumGoroutine: live goroutines of this runtime. */
    public long numGoroutine() {
        // Go's gcount: started minus ended. Ended is read first, so a goroutine that ends during
        // the sum is never counted as ended without being counted as started.
        long exited = exitedExternally.sum();
        M[] ms = allmSnapshot;
        for (M m : ms) {
            exited += m.exited();
        }
        long created = spawnedExternally.sum();
        for (M m : allmSnapshot) {
            created += m.spawned();
        }
        return created - exited;
    }

    /** Live goroutines, for the dump; empty when the registry is off. */
    List<G> allGoroutines() {
        return allgs == null ? new ArrayList<>() : allgs.snapshot();
    }

    /** Creates a runtime timer whose callback runs on this runtime's Ms. */
    public RuntimeTimer newTimer(Runnable callback) {
        return new RuntimeTimer(this, callback);
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
    private P ownerEnter(M m) {
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

    private void ownerExit(M m, P p) {
        if (m.curTask != null) {
            // store-release: hands the P back to "running user code", where sysmon may retake it
            p.srStatus(P.pack(m.epoch, P.USER));
        }
    }

    /** Go's runqput, with runqputslow's overflow to the global queue. Owner only. */
    private void runqput(P p, Runnable task, boolean next) {
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
    private void globrunqputbatch(Runnable[] batch, int n) {
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
    private Runnable globrunqget(P p, int max) {
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

    // =====================================================================================
    // Idle P list (caller holds lock)
    // =====================================================================================

    void pidleput(P p) {
        if (gcwaiting) {
            // Go's handoffp and gcstopm during a stop-the-world: the P stops instead of idling,
            // with whatever its queue holds (ProcResize redistributes it).
            p.setStatus(P.pack(P.epoch(p.status()), P.GCSTOP));
            p.m = null;
            return;
        }
        if (!p.runq.isEmpty()) {
            throw new InternalError("pidleput: P" + p.id + " has non-empty run queue");
        }
        p.setStatus(P.pack(P.epoch(p.status()), P.IDLE));
        p.m = null;
        pidle[pidleTop++] = p;
        idlepMask.getAndAccumulate(p.id >>> 6, 1L << (p.id & 63), (a, b) -> a | b);
        npidle = npidle + 1; // volatile store under lock; readers outside take it as a hint
    }

    P pidleget() {
        if (pidleTop == 0) {
            return null;
        }
        P p = pidle[--pidleTop];
        pidle[pidleTop] = null;
        idlepMask.getAndAccumulate(p.id >>> 6, ~(1L << (p.id & 63)), (a, b) -> a & b);
        npidle = npidle - 1;
        return p;
    }

    /** pidleget taking the lock itself. */
    P pidlegetLocked() {
        lock.lock();
        try {
            return pidleget();
        } finally {
            lock.unlock();
        }
    }

    private boolean isIdle(P p) {
        return (idlepMask.get(p.id >>> 6) & (1L << (p.id & 63))) != 0;
    }

    // =====================================================================================
    // M management: wakep, startm, stopm, handoffp
    // =====================================================================================

    /**
     * Go's wakep: tries to add one more spinning M if there is an idle P and no M is spinning.
     */
    void wakep() {
        // Not in Go: with no idle P there is nobody to wake. Safe because the caller put its
        // work under the lock before this read: an M that drops its P either did so before that
        // put (then npidle is no longer 0 here) or checks the global queue under the lock first.
        if (npidle == 0) {
            return;
        }
        // Be conservative about spinning threads: only start one if none exists already.
        if (nmspinning.get() != 0 || !nmspinning.compareAndSet(0, 1)) {
            return;
        }
        P p;
        lock.lock();
        try {
            p = pidleget();
            if (p == null) {
                // Go's pidlegetSpinning. Our nmspinning of 1 made every wakep since the CAS
                // return early, trusting a spinning M to find their work; there is none. So,
                // in the same critical section: the next M to drop its P spins instead (it
                // checks needspinning under this lock), and the count goes back to 0. Dropping
                // it after the unlock instead let both Ms release their Ps without spinning,
                // each seeing our 1, and the work queued meanwhile waited for nobody (a lost
                // wake-up, seen in GoChanTest with platform-thread receivers).
                needspinning = true;
                if (nmspinning.decrementAndGet() < 0) {
                    throw new InternalError("wakep: negative nmspinning");
                }
                return;
            }
        } finally {
            lock.unlock();
        }
        startm(p, true, false);
    }

    /**
     * Go's startm: schedules an M to run {@code p}, reusing an idle M or creating one. With
     * {@code spinning}, the caller has already counted the M in nmspinning.
     */
    void startm(P p, boolean spinning, boolean forHandoff) {
        M nm;
        lock.lock();
        try {
            if (p == null) {
                p = pidleget();
                if (p == null) {
                    if (spinning && nmspinning.decrementAndGet() < 0) {
                        throw new InternalError("startm: negative nmspinning");
                    }
                    return;
                }
            }
            if (life.closed) {
                if (p.runq.isEmpty()) {
                    pidleput(p);
                } // else: the runtime is gone, and its queued tasks with it (close abandons them)
                return;
            }
            int n = midle.size();
            if (n > 0) {
                nm = midle.remove(n - 1);
                nmidle--;
                Checkdead.mstarted(nm);
            } else {
                boolean capped = forHandoff ? mHandoffCount >= maxHandoffThreads : mcount >= maxThreads;
                if (capped) {
                    reportMCap(forHandoff);
                    pidleput(p);
                    if (spinning && nmspinning.decrementAndGet() < 0) {
                        throw new InternalError("startm: negative nmspinning");
                    }
                    return;
                }
                nm = new M(this, mcount, forHandoff);
                if (allgs != null) {
                    nm.allgs = allgs.newSegment();
                }
                mcount++;
                Checkdead.mstarted(nm);
                if (forHandoff) {
                    mHandoffCount++;
                }
                allm.add(nm);
                allmSnapshot = allm.toArray(new M[0]);
                mWakeups.increment();
                nm.nextSpinning = spinning;
                nm.nextp = p;
                nm.start();
                return;
            }
        } finally {
            lock.unlock();
        }
        mWakeups.increment();
        nm.nextSpinning = spinning;
        nm.nextp = p; // volatile store, published before the wake-up
        nm.notewakeup();
    }

    private void reportMCap(boolean forHandoff) {
        if (!mCapReported) {
            mCapReported = true;
            System.err.println("gmp4j: runtime '" + name + "' reached its " + (forHandoff
                    ? "handoff thread cap (" + maxHandoffThreads + "): a P stays with a blocked goroutine"
                    : "thread cap maxThreads=" + maxThreads) + "; raise it with the runtime builder");
        }
    }

    /** Whether the M thread cap was ever hit (reported once on stderr). */
    public boolean threadCapReached() {
        return mCapReported;
    }

    /** Entry of a new M thread: Go's mstart. */
    void mstart(M m) {
        try {
            P p = m.nextp;
            m.nextp = null;
            acquirep(m, p);
            if (m.nextSpinning) {
                m.spinning = true;
            }
            schedule(m);
        } finally {
            mexit(m);
        }
    }

    private void mexit(M m) {
        List<MainWait> deadlocked = null;
        lock.lock();
        try {
            // An M that exits running (the runtime closed under it) leaves the process-wide
            // count; if it was the last running M, it checks for the other runtimes.
            deadlocked = Checkdead.mstopped(m);
        } finally {
            lock.unlock();
        }
        Checkdead.notifyDeadlock(deadlocked);
        if (m.spinning) {
            m.spinning = false;
            nmspinning.decrementAndGet();
        }
        P p = m.p;
        if (p != null) {
            p.setStatus(P.pack(P.epoch(p.status()) + 1, P.DEAD));
            p.m = null;
            m.p = null;
        }
    }

    /**
     * Go's stopm: puts the M on the idle list and sleeps until startm hands it a P. Returns
     * false if the runtime closed meanwhile.
     */
    private boolean stopm(M m) {
        if (m.p != null) {
            throw new InternalError("stopm: M holds P" + m.p.id);
        }
        if (allgs != null) {
            // Going to sleep is the cheap moment to drop ended goroutines from the registry
            // (this M's segment is its alone): otherwise a burst of goroutines stays reachable,
            // with their threads, until the segment next fills.
            allgs.sweepIdle(m, liveCount);
        }
        List<MainWait> deadlocked = null;
        lock.lock();
        try {
            if (life.closed) {
                return false;
            }
            midle.add(m);
            nmidle++;
            deadlocked = Checkdead.mstopped(m);
        } finally {
            lock.unlock();
        }
        Checkdead.notifyDeadlock(deadlocked);
        mSleeps.increment();
        m.notesleep();
        if (life.closed) {
            return false;
        }
        P p = m.nextp;
        m.nextp = null;
        acquirep(m, p);
        if (m.nextSpinning) {
            m.spinning = true;
        }
        return true;
    }

    /** Go's acquirep: binds an idle P to the M, starting a new ownership epoch. */
    void acquirep(M m, P p) {
        if (p == null) {
            throw new InternalError("acquirep: no P");
        }
        long e = P.epoch(p.status()) + 1;
        p.m = m;
        m.epoch = e;
        m.p = p;
        // volatile store: later owner reads of shared state must not float above it
        p.setStatus(P.pack(e, P.RUNNING));
        if (processCpus != null) {
            pinToCpuOf(m, p);
        }
    }

    /**
     * Pinned mode: moves the calling thread, which is M {@code m} (acquirep runs only on the M's
     * own thread, the scheduler loop or a goroutine mounted on it), to P {@code p}'s CPU. An M
     * that keeps its P, or takes one with the same CPU, makes no system call.
     */
    private void pinToCpuOf(M m, P p) {
        int cpu = processCpus[p.id % processCpus.length];
        if (m.pinnedCpu == cpu) {
            return;
        }
        int errno = affinity.pinCurrentThread(cpu);
        if (errno == 0) {
            m.pinnedCpu = cpu;
            carrierPins.increment();
        } else if (!pinErrorReported) {
            // the CPU went offline or left the cpuset since start: run unpinned, say so once
            pinErrorReported = true;
            System.err.println("gmp4j: runtime '" + name + "' could not pin an M to CPU " + cpu
                    + " (sched_setaffinity errno " + errno + "); that M runs unpinned");
        }
    }

    /**
     * Pinned mode: lets the calling thread run on every CPU of the process again. A thread
     * inherits its creator's affinity (Linux's rule), so a thread the runtime starts from a
     * pinned M, other than an M (which pins itself to its P's CPU), calls this first: sysmon,
     * the poller thread. No-op when carriers are not pinned.
     */
    public void unpinCurrentThread() {
        if (processCpus != null) {
            affinity.pinCurrentThread(processCpus);
        }
    }

    /** The CPU each P's M is pinned to, by P id, for {@code n} Ps; empty unless carriers are pinned. */
    private int[] pinnedCpus(int n) {
        if (processCpus == null) {
            return new int[0];
        }
        int[] cpus = new int[n];
        for (int i = 0; i < n; i++) {
            cpus[i] = processCpus[i % processCpus.length];
        }
        return cpus;
    }

    /** Go's releasep: unbinds the M's P (the caller puts it on the idle list). */
    private P releasep(M m) {
        P p = m.p;
        m.p = null;
        p.m = null;
        return p;
    }

    /**
     * Go's handoffp: hands off a P taken from a goroutine in a syscall or stuck running. Starts
     * an M for it if there is work anywhere, otherwise idles it.
     */
    void handoffp(P p) {
        handoffs.increment();
        startOrIdle(p, true);
    }

    /**
     * Releases {@code p}, just taken from a poll goroutine entering a blocking turn that an idle
     * M asked for, the way Go's {@code findRunnable} releases its P before blocking in netpoll.
     * Unlike {@link #handoffp} it starts no spinning M for an empty P while the others are busy:
     * the M that asked for the turn has just looked everywhere (local, global, netpoll, steal)
     * and found nothing, so that M would find nothing too and go back to sleep, a futex wake
     * and sleep per idle turn (0.24 per request through the proxy at 16 connections). Work that
     * arrives later finds the P idle and goes through {@link #wakep}. Work that arrived since
     * (another poll goroutine readied behind this one, a global task) gets an M as in handoffp.
     */
    void releaseIdle(P p) {
        startOrIdle(p, false);
    }

    /** handoffp's body; {@code spinIfAllBusy}: Go's extra spinning M when no P is idle. */
    private void startOrIdle(P p, boolean spinIfAllBusy) {
        // if it has local work, start it straight away
        if (!p.runq.isEmpty() || runq.size() != 0) {
            startm(p, false, true);
            return;
        }
        // no local work: start a spinning M only if there are no spinning or idle Ms to help
        if (spinIfAllBusy && nmspinning.get() + npidle == 0 && nmspinning.compareAndSet(0, 1)) {
            startm(p, true, true);
            return;
        }
        long when = 0;
        boolean start;
        lock.lock();
        try {
            // If this is the last running P and nobody is polling the network, an M must
            // stay to poll it.
            start = runq.size() != 0 || (realNetpoller && netpoller.hasWaiters()
                    && npidle == gomaxprocs - 1 && lastpoll.get() != 0);
            if (!start) {
                when = p.timers.when0;
                pidleput(p);
            }
        } finally {
            lock.unlock();
        }
        if (start) {
            startm(p, false, true);
            return;
        }
        if (when != 0) {
            wakeNetPoller(when);
        }
    }

    // =====================================================================================
    // The scheduler loop
    // =====================================================================================

    /** Go's schedule: find a runnable task and run it, forever. */
    private void schedule(M m) {
        while (!life.closed) {
            Runnable r = findRunnable(m);
            if (r == null) {
                return; // closed
            }
            if (m.spinning) {
                resetspinning(m);
            }
            run(m, r);
            if (m.p == null && !reacquireAfterLoss(m)) {
                return;
            }
        }
    }

    /** Go's execute: runs one task on the M's P. */
    private void run(M m, Runnable r) {
        P p = m.p;
        if (!m.inheritTime) {
            p.incSchedtick();
        }
        if (p.preempt) {
            p.preempt = false; // a new task starts a new time slice
        }
        p.tasksRun++;
        m.curTask = r;
        p.srStatus(P.pack(m.epoch, P.USER));
        try {
            r.run();
        } catch (Throwable t) {
            reportTaskFailure("task " + r, t);
        } finally {
            m.curTask = null;
            m.goschedGlobal = false;
        }
        // Take the P back from "user" state. Re-read m.p: the task may have lost its P, or
        // swapped it for another in exitsyscall's slow path (and a stale P's epoch could
        // collide with ours). Failure means sysmon handed it off, or the task parked inside
        // Syscall.blocking and left it in SYSCALL under our epoch.
        P cur = m.p;
        if (cur == null) {
            return;
        }
        if (!cur.casStatus(P.pack(m.epoch, P.USER), P.pack(m.epoch, P.RUNNING))) {
            long s = cur.status();
            if (!(P.epoch(s) == m.epoch && P.state(s) == P.SYSCALL
                    && cur.casStatus(s, P.pack(m.epoch, P.RUNNING)))) {
                m.p = null;
            }
        }
    }

    /** After losing its P: take an idle one, or sleep until startm hands us one. */
    private boolean reacquireAfterLoss(M m) {
        P pp = pidlegetLocked();
        if (pp != null) {
            acquirep(m, pp);
            return true;
        }
        return stopm(m);
    }

    private void becomeSpinning(M m) {
        m.spinning = true;
        nmspinning.incrementAndGet();
        needspinning = false; // a spinning M now exists to find the work (Go's becomeSpinning)
    }

    /** Go's resetspinning: an M that found work stops spinning and may wake another. */
    private void resetspinning(M m) {
        m.spinning = false;
        if (nmspinning.decrementAndGet() < 0) {
            throw new InternalError("resetspinning: negative nmspinning");
        }
        // M wakeup policy is deliberately conservative, so check if we need another one now.
        wakep();
    }

    /**
     * Go's findRunnable: finds a task to run, in Go's order. Tries the global queue first every
     * 61st tick, then runnext and the local queue, the global queue, a non-blocking netpoll, and
     * stealing (only while {@code 2*nmspinning < gomaxprocs - npidle}); otherwise releases the P
     * and sleeps. Returns with {@code m.p} set, or null when the runtime closes.
     */
    private Runnable findRunnable(M m) {
        top:
        while (true) {
            if (life.closed) {
                return null;
            }
            if (gcwaiting) {
                // Go's gcstopm: a stop-the-world waits for this P.
                if (!gcstopm(m)) {
                    return null;
                }
                continue;
            }
            P p = m.p;
            long now = 0;
            if (p.timers.when0 != 0) {
                now = System.nanoTime();
                p.timers.runDue(now); // Go's checkTimers
            }

            // Check the global runnable queue once in a while to ensure fairness. Otherwise
            // two goroutines can completely occupy the local runqueue by constantly respawning
            // each other.
            if (p.schedtick() % GLOBAL_QUEUE_INTERVAL == 0 && runq.size() > 0) {
                Runnable r;
                lock.lock();
                try {
                    r = globrunqget(p, 1);
                } finally {
                    lock.unlock();
                }
                if (r != null) {
                    p.fairnessPicks++;
                    return notInherited(m, p, r);
                }
            }

            // local runq
            boolean mayInherit = p.runnextChain < MAX_RUNNEXT_INHERITS;
            Runnable r = p.runq.get(p.got, mayInherit);
            if (r != null) {
                if (p.got.inheritTime) {
                    p.runnextChain++;
                    p.runnextHits++;
                    m.inheritTime = true;
                    return r;
                }
                if (!mayInherit) {
                    p.runnextCapped++;
                }
                return notInherited(m, p, r);
            }

            // global runq
            if (runq.size() != 0) {
                lock.lock();
                try {
                    r = globrunqget(p, 0);
                } finally {
                    lock.unlock();
                }
                if (r != null) {
                    return notInherited(m, p, r);
                }
            }

            // Poll network: a non-blocking optimization before stealing, skipped while another
            // M is blocked in the poller (lastpoll == 0).
            if (realNetpoller && netpoller.hasWaiters() && lastpoll.get() != 0) {
                TaskBatch b = m.pollBatch;
                netpoller.poll(0, b);
                if (!b.isEmpty()) {
                    r = b.pop();
                    injectglist(b);
                    return notInherited(m, p, r);
                }
            }

            // Per-P pollers: this P's poll goroutine polls its loop without blocking. Once per
            // run of other work: tasksRun moves whenever anything ran on this P since the poll.
            ProcNetpoll pn = procNetpoll;
            if (pn != null && p.tasksRun != p.netpollRan && pn.pollNow(p.id)) {
                p.netpollRan = p.tasksRun + 1; // the poll goroutine's own run
                continue top;
            }

            // Spinning Ms: steal work from other Ps. Limit the number of spinning Ms to half
            // the number of busy Ps, to avoid excessive CPU use when GOMAXPROCS>1 but the
            // program parallelism is low.
            if (m.spinning || 2 * nmspinning.get() < gomaxprocs - npidle) {
                if (!m.spinning) {
                    becomeSpinning(m);
                }
                r = stealWork(m, p, now != 0 ? now : System.nanoTime());
                if (r != null) {
                    return notInherited(m, p, r);
                }
            }

            // Per-P pollers: block in this P's loop (inside a syscall, which hands the P off)
            // rather than sleep, as Go's last idle M blocks in netpoll.
            if (pn != null && pn.pollBlocking(p.id, earliestTimer())) {
                p.netpollRan = p.tasksRun + 1;
                continue top;
            }

            // We have nothing to do. Release the P, re-checking the global queue under the lock.
            lock.lock();
            try {
                if (life.closed) {
                    return null;
                }
                // Under the lock gcwaiting is exact: while it is set the P stops (pidleput).
                if (runq.size() != 0 && !gcwaiting) {
                    r = globrunqget(p, 0);
                    return notInherited(m, p, r);
                }
                if (!m.spinning && needspinning && !gcwaiting) {
                    // A wakep found work but no idle P (see wakep): spin instead of sleeping,
                    // so that this M's re-checks below find that work.
                    becomeSpinning(m);
                    continue top;
                }
                releasep(m);
                pidleput(p);
            } finally {
                lock.unlock();
            }

            // Delicate dance: thread transitions from spinning to non-spinning state,
            // potentially concurrently with submission of new work. We must drop nmspinning
            // first and then check all sources again (with a StoreLoad barrier in between).
            // If we did it the other way around, another thread could submit work after we've
            // checked all sources but before we drop nmspinning; as a result nobody would
            // unpark a thread to run the work.
            boolean wasSpinning = m.spinning;
            if (m.spinning) {
                m.spinning = false;
                // the atomic decrement is the StoreLoad barrier of the dance
                if (nmspinning.decrementAndGet() < 0) {
                    throw new InternalError("findRunnable: negative nmspinning");
                }
                // Check the global queue again: a submitter that saw us spinning did not wake
                // anyone (Go issue 43997 explains why every spinning M re-checks).
                if (runq.size() != 0) {
                    lock.lock();
                    try {
                        // re-check under the lock: another M may have emptied it meanwhile
                        P pp = runq.size() != 0 ? pidleget() : null;
                        if (pp != null) {
                            acquirep(m, pp);
                            becomeSpinning(m);
                            r = globrunqget(pp, 0);
                            if (r == null) {
                                throw new InternalError("findRunnable: global runq empty with non-zero size");
                            }
                            return notInherited(m, pp, r);
                        }
                    } finally {
                        lock.unlock();
                    }
                }
                P pp = checkRunqsNoP();
                if (pp != null) {
                    acquirep(m, pp);
                    becomeSpinning(m);
                    continue top;
                }
            }

            // Timers: the earliest deadline over all Ps decides how long an idle M may sleep.
            long pollUntilNow = earliestTimer();
            if ((realNetpoller && netpoller.hasWaiters() || pollUntilNow != 0)
                    && lastpoll.getAndSet(0) != 0) {
                // We hold the poll token: block in the poller until I/O, the next timer, or a
                // wakeup. Go's netpoll(delay) by the last M going idle.
                long delay = -1;
                if (pollUntilNow != 0) {
                    delay = Math.max(0, pollUntilNow - System.nanoTime());
                }
                pollUntil = pollUntilNow;
                if (life.closed) {
                    lastpoll.set(System.nanoTime());
                    return null;
                }
                TaskBatch b = m.pollBatch;
                netpoller.poll(delay, b);
                pollUntil = 0;
                lastpoll.set(System.nanoTime());
                P pp = pidlegetLocked();
                if (pp == null) {
                    injectglist(b);
                } else {
                    acquirep(m, pp);
                    if (!b.isEmpty()) {
                        r = b.pop();
                        injectglist(b);
                        return notInherited(m, pp, r);
                    }
                    if (wasSpinning) {
                        becomeSpinning(m);
                    }
                    continue top;
                }
            } else if (pollUntilNow != 0) {
                long pu = pollUntil;
                if (pu == 0 || pu - pollUntilNow > 0) {
                    netpoller.wakeup(); // the poller sleeps past our timer: make it re-plan
                }
            }
            if (!stopm(m)) {
                return null;
            }
        }
    }

    /**
     * Go's gcstopm: gives the M's P to a stop-the-world (pidleput stops it while gcwaiting)
     * and sleeps until the world restarts and hands it a P. False if the runtime closed.
     */
    private boolean gcstopm(M m) {
        if (m.spinning) {
            m.spinning = false;
            if (nmspinning.decrementAndGet() < 0) {
                throw new InternalError("gcstopm: negative nmspinning");
            }
        }
        lock.lock();
        try {
            pidleput(releasep(m));
        } finally {
            lock.unlock();
        }
        return stopm(m);
    }

    private Runnable notInherited(M m, P p, Runnable r) {
        m.inheritTime = false;
        p.runnextChain = 0;
        return r;
    }

    /**
     * Go's stealWork: 4 passes over all Ps in a random order (random start, coprime stride),
     * skipping idle Ps; the last pass also runs the victims' due timers and may take runnext.
     */
    private Runnable stealWork(M m, P p, long now) {
        // One allp for the whole steal (see the field); the strides may belong to the previous
        // length for a pass around a resize: a stride not coprime to n visits fewer Ps, and
        // pos stays below n either way.
        P[] all = allp;
        int n = all.length;
        for (int i = 0; i < STEAL_TRIES; i++) {
            boolean stealTimersOrRunNextG = i == STEAL_TRIES - 1;
            int start = m.nextRandom() % n;
            int[] cp = coprimes;
            int stride = cp[m.nextRandom() % cp.length];
            int pos = start;
            for (int k = 0; k < n; k++, pos = (pos + stride) % n) {
                if (life.closed) {
                    return null;
                }
                P p2 = all[pos];
                if (p2 == p) {
                    continue;
                }
                // Steal timers from p2. This call to runDue is the only place where we might run
                // another P's timers; their callbacks ready goroutines into our own queue.
                if (stealTimersOrRunNextG && p2.timers.when0 != 0 && p2.timers.runDue(now) > 0) {
                    Runnable r = p.runq.get(p.got, true);
                    if (r != null) {
                        return r;
                    }
                }
                // Don't bother to attempt to steal if p2 is idle.
                if (!isIdle(p2)) {
                    // Read the victim's status only when it matters (runnext on the last pass):
                    // its owner writes that cache line twice per task, and spinning thieves
                    // reading it on every pass would keep stealing the line from the owner.
                    boolean running = stealTimersOrRunNextG && P.state(p2.status()) != P.IDLE;
                    Runnable r = p.runq.stealFrom(p2.runq, stealTimersOrRunNextG, running, p.stolenScratch);
                    if (r != null) {
                        p.steals++;
                        p.stolenTasks += p.stolenScratch[0];
                        return r;
                    }
                }
            }
        }
        return null;
    }

    /** Go's checkRunqsNoP: after dropping spinning, take an idle P if any P has queued work. */
    private P checkRunqsNoP() {
        for (P p2 : allp) {
            if (!isIdle(p2) && !p2.runq.isEmpty()) {
                return pidlegetLocked();
            }
        }
        // Timers due on any P also need an M with a P (Go's checkTimersNoP).
        long now = System.nanoTime();
        for (P p2 : allp) {
            long w = p2.timers.when0;
            if (w != 0 && w - now <= 0) {
                return pidlegetLocked();
            }
        }
        return null;
    }

    private long earliestTimer() {
        long min = 0;
        for (P p2 : allp) {
            long w = p2.timers.when0;
            if (w != 0 && (min == 0 || w - min < 0)) {
                min = w;
            }
        }
        return min;
    }

    // =====================================================================================
    // Timers
    // =====================================================================================

    void addTimer(RuntimeTimer t, long when) {
        if (life.closed) {
            throw new RejectedExecutionException("gmp4j runtime '" + name + "' is closed: cannot arm a timer");
        }
        M m = Carrier.currentM();
        P p = (m != null && m.sched == this) ? m.p : null;
        while (true) {
            if (p == null) {
                P[] all = allp;
                p = all[(timerRoundRobin.getAndIncrement() & Integer.MAX_VALUE) % all.length];
            }
            int added = p.timers.add(t, when);
            if (added == Timers.GONE) {
                p = null; // a P that GOMAXPROCS removed (read from a stale allp or a lost m.p)
                continue;
            }
            if (added == Timers.EARLIEST) {
                wakeNetPoller(when);
            }
            return;
        }
    }

    /**
     * Go's wakeNetPoller: makes sure an M will run timers due at {@code when}: interrupts the
     * blocked poller if it sleeps past {@code when}, or starts an M if nobody polls.
     */
    void wakeNetPoller(long when) {
        ProcNetpoll pn = procNetpoll;
        if (pn != null) {
            pn.wakeup(when); // a poll goroutine blocked past `when` re-plans; cheap when none is
        }
        if (lastpoll.get() == 0) {
            long pu = pollUntil;
            if (pu == 0 || pu - when > 0) {
                netpoller.wakeup();
            }
        } else {
            wakep();
        }
    }

    // =====================================================================================
    // Syscalls and preemption (the protocol lives in Syscalls)
    // =====================================================================================

    /**
     * Go's entersyscall: the calling goroutine is about to block outside the scheduler's sight.
     * Returns a token for {@link #exitsyscall}, or 0 when the caller holds no P. See
     * {@link Syscalls}.
     *
     * @param handoffNow hand the P off at once (Go's entersyscallblock)
     */
    public long entersyscall(boolean handoffNow) {
        return Syscalls.enter(this, handoffNow ? Syscalls.HANDOFF : Syscalls.KEEP_P);
    }

    /**
     * {@link #entersyscall} for a per-P poll goroutine ({@link ProcNetpoll}) about to block in
     * its loop because an M found nothing to run ({@code pollBlocking}): the P goes back to the
     * idle list, as Go's {@code findRunnable} releases its P before the last M blocks in
     * {@code netpoll}, unless work reached it meanwhile (then {@code handoffp}).
     */
    public long entersyscallIdle() {
        return Syscalls.enter(this, Syscalls.RELEASE_IDLE);
    }

    /** Go's exitsyscall, for the token {@link #entersyscall} returned. See {@link Syscalls}. */
    public void exitsyscall(long token) {
        Syscalls.exit(this, token);
    }

    /**
     * A safe point: if the caller's P has a preemption request, or the caller's M lost its P,
     * yields the goroutine to the global queue. Cheap enough for every channel operation.
     */
    public static void safePoint() {
        M m = Carrier.currentM();
        if (m != null) {
            Syscalls.safePoint(m);
        }
    }

    /** The plain task the calling M is running (a behaviour actor's mailbox task), or null. */
    public static Runnable currentTask() {
        M m = Carrier.currentM();
        return m == null ? null : m.curTask;
    }

    /**
     * {@link #execute} for a task the calling task hands its M to: when this P has nothing else
     * queued, the task takes runnext without {@code wakep}, because the caller is about to end
     * (a behaviour actor telling an idle actor its last message) and this M runs the task next;
     * starting an M would only have it spin and find nothing. With anything else queued here it
     * is a plain execute, and other Ps are woken to share the work as usual.
     */
    public void executeHere(Runnable task) {
        M m = Carrier.currentM();
        if (m != null && m.sched == this && m.curTask != null && !life.closed) {
            P p = ownerEnter(m);
            if (p != null) {
                // Straight to runnext rather than through execute with wakep off (readyHere's
                // way): this is every actor hand-off's path, and execute's other checks do not
                // apply to a task handed over by the running one.
                boolean alone = p.runq.isEmpty();
                runqput(p, task, true);
                ownerExit(m, p);
                if (!alone) {
                    wakep();
                }
                return;
            }
        }
        execute(task);
    }

    /**
     * True when a plain task running on an M of a runtime should return and give way: its P has
     * a preemption request from sysmon, or its M lost the P. For tasks that are not goroutines
     * (behaviour actors) and so have no safe point: they check this between units of work and
     * re-submit themselves. False on threads that are not Ms.
     */
    public static boolean preemptRequested() {
        M m = Carrier.currentM();
        if (m == null) {
            return false;
        }
        P p = m.p;
        return p == null || p.preempt || p.status() != P.pack(m.epoch, P.USER);
    }

    /**
     * True when the caller runs directly on an M of a runtime rather than in a goroutine: a
     * plain task such as a behaviour actor, or a timer callback. Such code must never park (it
     * would block the M and its P); primitives that would wait fail or drop instead.
     */
    public static boolean runningOnM() {
        return !Thread.currentThread().isVirtual() && Carrier.currentM() != null;
    }

    /**
     * Go's acquirem: until the matching {@link #releasem}, safe points do not yield the calling
     * goroutine. For code that holds a spin lock which a timer callback or another M may spin
     * on, and calls something with a safe point (a channel operation) inside it: yielding there
     * would leave that M spinning on a lock whose holder waits for a P. Must not park in
     * between. Pairs nest. A no-op on threads that are not goroutines.
     */
    public static void acquirem() {
        M m = Carrier.currentM();
        if (m != null && Thread.currentThread().isVirtual()) {
            m.locks++;
        }
    }

    /** Go's releasem: ends an {@link #acquirem}. */
    public static void releasem() {
        M m = Carrier.currentM();
        if (m != null && Thread.currentThread().isVirtual()) {
            m.locks--;
        }
    }

    /**
     * False while the calling goroutine is between {@link #acquirem} and {@link #releasem}: a
     * spin-wait there must not {@code Thread.yield()} (it would unmount holding a lock).
     */
    public static boolean mayYield() {
        M m = Carrier.currentM();
        return m == null || m.locks == 0 || !Thread.currentThread().isVirtual();
    }

    /** Go's Gosched: yields the processor; the caller goes to the global queue. */
    public static void gosched() {
        Syscalls.gosched();
    }

    // =====================================================================================
    // Deadlock detection (Go's checkdead)
    // =====================================================================================

    /**
     * The main goroutine's waiter to tell of a deadlock ({@link Checkdead}), or null when no
     * main goroutine runs or the check is off.
     */
    MainWait deadlockWaiter() {
        return checkDeadlock ? mainWait : null;
    }

    /**
     * This runtime's cheap part of {@link Checkdead}: nothing runnable, no pending timer, no
     * goroutine in a syscall or a network wait. Read without this runtime's lock when another
     * runtime checks; Checkdead validates the reads (no M ran meanwhile).
     */
    boolean nothingPending() {
        if (ntimers.get() > 0 || nsyscall.get() > 0) {
            return false;
        }
        if (realNetpoller && netpoller.hasWaiters()) {
            return false;
        }
        NetpollThread npt = netpollThread.get();
        if (npt != null && npt.hasWaiters()) {
            return false; // goroutines wait for I/O that the poller thread will ready
        }
        if (runq.size() > 0) {
            return false;
        }
        for (P p : allp) {
            if (!p.runq.isEmpty()) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether every live goroutine of this runtime is parked in {@link G#park}, Go's walk over
     * allgs in checkdead. The live count is read before the walk: a goroutine counted there
     * and not found waiting (running, runnable, in a JDK wait, or started from another thread
     * meanwhile) makes it false. Without the registry nothing can be shown asleep, so only a
     * runtime with no goroutine is. A runtime whose main is waited for and has no goroutine is
     * between {@code main}'s start and its goroutine's (whether or not it checks): not asleep.
     */
    boolean allAsleep() {
        long live = numGoroutine();
        if (live <= 0) {
            return live == 0 && mainWait == null;
        }
        return allgs != null && allgs.countWaiting() >= live;
    }

    /** Notified when checkdead finds a deadlock while a main goroutine runs. */
    public interface MainWait {
        /** All goroutines are asleep. Called on an M; must not block. */
        void deadlock();
    }

    /** Records the public runtime object that owns this scheduler (set once by GoRuntime). */
    public void setOwner(Object facade) {
        if (owner != null) {
            throw new IllegalStateException("setOwner: this scheduler already belongs to " + owner);
        }
        owner = facade;
    }

    /** The public runtime object that owns this scheduler, or null. */
    public Object owner() {
        return owner;
    }

    /**
     * Where this runtime's goroutine panics go (an exception that ended a goroutine): called on
     * the goroutine's thread, after the goroutine ended, with the exception and the goroutine
     * id. Null: printed as Go prints a panic ({@link Panics#print}), and the program goes on.
     */
    public void setPanicHandler(java.util.function.ObjLongConsumer<Throwable> handler) {
        this.panicHandler = handler;
    }

    /** A goroutine of this runtime ended with {@code panic} (see {@link #setPanicHandler}). */
    void panic(long goid, Throwable panic) {
        java.util.function.ObjLongConsumer<Throwable> h = panicHandler;
        if (h != null) {
            h.accept(panic, goid);
        } else {
            Panics.print(goid, panic);
        }
    }

    /** Registers the waiter of a main goroutine (Go.main); null to clear. */
    public void setMainWait(MainWait w) {
        this.mainWait = w;
    }

    /**
     * A thread that is not a goroutine starts or stops waiting on a gmp4j primitive (it may
     * still wake goroutines, so while one waits no runtime reports a deadlock).
     */
    public static void platformWait(boolean entering) {
        if (entering) {
            platformWaiters.incrementAndGet();
        } else {
            platformWaiters.decrementAndGet();
        }
    }

    // =====================================================================================
    // Observability and lifecycle
    // =====================================================================================

    void reportTaskFailure(String what, Throwable t) {
        taskFailures.increment();
        System.err.println("gmp4j: " + what + " failed on runtime '" + name + "':");
        t.printStackTrace();
    }

    /** A consistent-enough snapshot of the scheduler state and counters. */
    public SchedStats stats() {
        P[] all = allp;
        int nprocs = all.length;
        int[] lens = new int[nprocs];
        long runnextHits = resize.retired(ProcResize.RUNNEXT_HITS), steals = resize.retired(ProcResize.STEALS),
                stolen = resize.retired(ProcResize.STOLEN), overflows = resize.retired(ProcResize.OVERFLOWS),
                fairness = resize.retired(ProcResize.FAIRNESS), capped = resize.retired(ProcResize.CAPPED);
        long[] ran = new long[nprocs];
        for (int i = 0; i < nprocs; i++) {
            P p = all[i];
            lens[i] = p.runq.size();
            runnextHits += p.runnextHits;
            steals += p.steals;
            stolen += p.stolenTasks;
            overflows += p.overflows;
            fairness += p.fairnessPicks;
            capped += p.runnextCapped;
            ran[i] = p.tasksRun;
        }
        int threads, idleThreads, handoffThreads;
        NetpollThread npt = netpollThread.get();
        long created = spawnedExternally.sum();
        for (M m : allmSnapshot) {
            created += m.spawned(); // another M's counter: a snapshot
        }
        lock.lock();
        try {
            threads = mcount;
            idleThreads = nmidle;
            handoffThreads = mHandoffCount;
        } finally {
            lock.unlock();
        }
        return new SchedStats((System.nanoTime() - startNanos) / 1_000_000, nprocs, npidle,
                threads + 1 /* sysmon */, nmspinning.get(), idleThreads, handoffThreads, runq.size(), lens, ran,
                created, numGoroutine(), steals, stolen, runnextHits, capped, overflows, fairness,
                handoffs.sum(), preemptRequests.sum(), injections.sum(), mWakeups.sum(), mSleeps.sum(), mCapReported,
                pinnedCpus(nprocs), carrierPins.sum(), npt == null ? null : npt.describe());
    }

    /** Go's GODEBUG=schedtrace line. */
    public String schedtrace() {
        return stats().schedtrace();
    }

    /** Go-style goroutine dump of every live goroutine of this runtime. */
    public String dump() {
        return GoroutineDump.of(this);
    }

    /** True once {@link #close} has begun. */
    public boolean isClosed() {
        return life.closed;
    }

    /** Number of Ps (GOMAXPROCS). */
    public int gomaxprocs() {
        return gomaxprocs;
    }

    /**
     * Go's {@code runtime.GOMAXPROCS(n)}: sets the number of Ps to {@code n} and returns the
     * previous number; {@code n < 1} only returns the current number. Stops the world, resizes
     * and starts it again: see {@link ProcResize}.
     *
     * @throws IllegalArgumentException when {@code n} exceeds the runtime's thread cap
     * @throws IllegalStateException when the runtime is closed (or closes meanwhile), or when
     *     called from a task that runs directly on one of its Ms (a timer callback, a behaviour
     *     actor), which must not block
     */
    public int gomaxprocs(int n) {
        if (n < 1) {
            return gomaxprocs;
        }
        return resize.gomaxprocs(n);
    }

    int runqCapacity() {
        return runqCapacity;
    }

    boolean closedFlag() {
        return life.closed;
    }

    /**
     * Publishes a new allp (ProcResize, world stopped, caller holds {@link #lock}): the idle
     * list and mask get room for every P of it.
     */
    void publishProcs(P[] ps) {
        int n = ps.length;
        if (pidleTop != 0) {
            throw new InternalError("publishProcs: " + pidleTop + " Ps still on the idle list");
        }
        if (pidle.length < n) {
            pidle = new P[n];
        }
        AtomicLongArray mask = idlepMask;
        int words = (n + 63) / 64;
        if (mask.length() < words) {
            AtomicLongArray bigger = new AtomicLongArray(words);
            for (int i = 0; i < mask.length(); i++) {
                bigger.set(i, mask.get(i));
            }
            idlepMask = bigger;
        }
        coprimes = coprimes(n);
        allp = ps;
        gomaxprocs = n;
    }

    /**
     * Stops the runtime: wakes and joins every M and sysmon. Goroutines still parked are
     * abandoned (as a Go program's are when main returns); waking one later fails with a
     * {@link RejectedExecutionException}. Ms busy in a goroutine that never parks are not
     * waited for beyond {@code timeoutMillis}.
     *
     * @return true when every runtime thread ended in time
     */
    public boolean close(long timeoutMillis) {
        ProcNetpoll pn = procNetpoll;
        if (pn != null && !life.closed) {
            // Per-P loops are owned by goroutines: they must run their shutdown while the Ms
            // still run goroutines, so they go first.
            pn.shutdown(timeoutMillis);
        }
        List<M> ms;
        lock.lock();
        try {
            if (life.closed) {
                ms = new ArrayList<>(allm);
            } else {
                life.closed = true;
                ms = new ArrayList<>(allm);
                Checkdead.unregister(this); // its goroutines can never run again
            }
        } finally {
            lock.unlock();
        }
        sysmon.shutdown();
        container.deregister();
        netpoller.wakeup();
        NetpollThread npt = netpollThread.get();
        if (npt != null) {
            npt.shutdown(timeoutMillis);
        }
        for (M m : ms) {
            m.notewakeup();
        }
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000;
        boolean all = true;
        try {
            sysmon.join(Math.max(1, timeoutMillis));
            all &= !sysmon.isAlive();
            for (M m : ms) {
                long left = (deadline - System.nanoTime()) / 1_000_000;
                if (left > 0) {
                    netpoller.wakeup();
                    m.join(left);
                }
                all &= !m.isAlive();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
        return all;
    }

    @Override
    public void close() {
        close(10_000);
    }

    /** Live runtime threads (Ms and sysmon), for tests that check a clean close. */
    public List<Thread> threads() {
        List<Thread> ts = new ArrayList<>();
        lock.lock();
        try {
            ts.addAll(allm);
        } finally {
            lock.unlock();
        }
        ts.add(sysmon);
        ts.removeIf(t -> !t.isAlive());
        return ts;
    }

    // --- accessors for sysmon
    int npidle() {
        return npidle;
    }

    boolean closed() {
        return life.closed;
    }

    long lastpollTime() {
        return lastpoll.get();
    }

    boolean hasRealNetpoller() {
        return realNetpoller;
    }

    long earliestTimerWhen() {
        return earliestTimer();
    }

    @Override
    public String toString() {
        return "gmp4j runtime '" + name + "' (GOMAXPROCS=" + gomaxprocs + ")";
    }
}
