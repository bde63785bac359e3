package io.gmp4j.runtime;

import io.gmp4j.runtime.spi.Netpoll;
import io.gmp4j.runtime.spi.TaskBatch;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * The state every part of the {@link Scheduler} shares: GOMAXPROCS and the Ps, the global run
 * queue and its lock, the idle P and M lists, the spinning count, the goroutine and timer
 * counts, the attached network poller and the counters; and the constructor that builds them. The
 * scheduler is one object whose code is split by responsibility along a chain of classes, as
 * JCTools splits a queue's fields: this state, then {@link Workers} (idle Ps and Ms),
 * {@link Placement} (where a runnable task lands), {@link SchedLoop} (the loop, stealing and
 * timers) and {@link Scheduler} (goroutines, syscalls, checkdead, stats and lifecycle).
 */
abstract sealed class SchedulerState permits Workers {
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
    volatile int[] coprimes;
    /** Go's sched.gcwaiting: a stop-the-world is under way. Written under {@link #lock}. */
    volatile boolean gcwaiting;
    /** GOMAXPROCS changes: the stop-the-world, Go's procresize and the restart. */
    final ProcResize resize;

    /** Go's sched.lock, which here also guards the global run queue. */
    final SpinLock lock;
    final GlobalRunQueue runq = new GlobalRunQueue();

    // --- idle Ps: guarded by lock; npidle and idlepMask are also read without it.
    /** Room for every P of the current allp; replaced (bigger) under lock by ProcResize. */
    P[] pidle;
    int pidleTop;
    volatile int npidle;
    /**
     * Bit i set when P i is idle; read lock-free by stealers (skip idle Ps). Only grows, under
     * lock with the world stopped, copying the bits; a reader holding the old array reads bits
     * frozen at the stop, a hint like any stale bit.
     */
    volatile AtomicLongArray idlepMask;
    // idlepMask is written before allp (publishProcs): a reader that saw an allp sees a mask
    // with a bit for each of its Ps.

    // --- Ms: guarded by lock.
    final ArrayList<M> midle = new ArrayList<>();
    int nmidle;
    int mcount;
    int mHandoffCount;
    final List<M> allm = new ArrayList<>();
    /** Copy of allm for lock-free readers (goroutine counts); replaced under lock. */
    volatile M[] allmSnapshot = new M[0];
    final int maxThreads;
    final int maxHandoffThreads;
    volatile boolean mCapReported;

    /** Go's sched.nmspinning. */
    final AtomicInteger nmspinning = new AtomicInteger();
    /**
     * Go's sched.needspinning: a {@link #wakep} found work to hand out but no idle P, so the
     * next M that is about to drop its P must spin instead (see the release in
     * {@link #findRunnable}). Set and read under {@link #lock}; cleared by {@link #becomeSpinning}.
     */
    volatile boolean needspinning;

    // --- goroutines
    final AtomicLong goidgen = new AtomicLong();
    /** Go's _GoidCacheBatch. */
    static final int GOID_CACHE_BATCH = 16;
    /** Goroutines started from threads that are not Ms (the rest are counted per M). */
    final LongAdder spawnedExternally = new LongAdder();
    /** Goroutines that ended on a thread that is not one of our Ms (a closed runtime). */
    final LongAdder exitedExternally = new LongAdder();
    /** Live goroutines for the dump; null when the registry is off. */
    final GoroutineRegistry allgs;
    final java.util.function.LongSupplier liveCount = this::numGoroutine;
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

    // --- the timer sleep of the last idle M (Go's sched.lastpoll, sched.pollUntil)
    /** Where the M holding the {@link #lastpoll} token sleeps until the next timer. */
    final TimerSleeper timerSleep = new TimerSleeper();
    /** 0 while an M is blocked in the timer sleep; otherwise the time it last woke. */
    final AtomicLong lastpoll = new AtomicLong(System.nanoTime());
    /** Deadline of the blocked poll, 0 for none. */
    volatile long pollUntil;

    // --- the network poller (io.gmp4j.runtime.spi): see Placement's netpoll part
    /** The attached poller; null until the first network use ({@link #attachNetpoll}), then set once. */
    volatile Netpoll netpoll;
    /**
     * The poller thread (not an M) whose {@link #execute} calls are collected into
     * {@link #turnThreadBatch} instead of queueing one by one (its {@code beginTurn}). Plain
     * fields: only that thread writes them (once, before its first turn) and only it can find
     * itself here; any other thread compares its own identity with whatever value it reads
     * (null or the poller thread), which is never equal, so a stale read cannot mislead it.
     */
    Thread turnThread;
    TaskBatch turnThreadBatch;

    // --- counters
    final LongAdder handoffs = new LongAdder();
    /** sched_setaffinity calls by Ms moving to their new P's CPU (pinned mode only). */
    final LongAdder carrierPins = new LongAdder();
    final LongAdder preemptRequests = new LongAdder();
    final LongAdder injections = new LongAdder();
    /** startm calls that woke an idle M or started a new one; stopm calls. */
    final LongAdder mWakeups = new LongAdder();
    final LongAdder mSleeps = new LongAdder();
    final LongAdder taskFailures = new LongAdder();

    final ThreadFactory vtFactory;
    /** The JDK thread container goroutines start in; see GoroutineContainer. */
    final GoroutineContainer container;
    final Sysmon sysmon;
    final int runqCapacity;
    final boolean checkDeadlock;
    final long startNanos = System.nanoTime();
    /** System.nanoTime() as of sysmon's last tick (at most 10 ms old): a cheap clock for dumps. */
    volatile long coarseNanos = startNanos;
    final AtomicInteger timerRoundRobin = new AtomicInteger();

    /** The public facade (io.gmp4j.GoRuntime) this scheduler belongs to; set once. */
    volatile Object owner;

    /** The closed flag, on a cache line of its own: read on every execute, written once. */
    final ClosedFlag life = new ClosedFlag();
    /**
     * Pinned mode: the CPUs the process may use (P i runs on the (i mod n)-th, for every
     * GOMAXPROCS) and the calls that pin; both null when off.
     */
    final int[] processCpus;
    final CpuAffinity affinity;
    volatile boolean pinErrorReported;
    /** Set by Go.main-style runs: deadlocks are only reported while a main goroutine runs. */
    volatile Scheduler.MainWait mainWait;
    /** Where goroutine panics go; null: printed. See {@link #setPanicHandler}. */
    volatile java.util.function.ObjLongConsumer<Throwable> panicHandler;

    final RunQueue.Overflow overflowToGlobal = this::globrunqputbatch;
    /** Overflow for callers that already hold {@link #lock} (the lock is not reentrant). */
    private final RunQueue.Overflow overflowToGlobalLocked = (batch, n) -> runq.putBatch(batch, 0, n);

    /** Builds the state of {@code self} (the one concrete class of the chain) from {@code c}. */
    SchedulerState(Scheduler.Config c) {
        Scheduler self = (Scheduler) this;
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
        if (c.leakProfile() && !c.goroutineRegistry()) {
            throw new IllegalArgumentException("the leak profile needs the goroutine registry (goroutineRegistry(true))");
        }
        this.allgs = c.goroutineRegistry() ? new GoroutineRegistry(c.leakProfile()) : null;
        P[] ps = new P[gomaxprocs];
        this.pidle = new P[gomaxprocs];
        this.idlepMask = new AtomicLongArray((gomaxprocs + 63) / 64);
        for (int i = 0; i < gomaxprocs; i++) {
            ps[i] = new P(i, runqCapacity, gomaxprocs > 1, self);
        }
        this.allp = ps;
        this.coprimes = coprimes(gomaxprocs);
        this.resize = new ProcResize(self, ps);
        if (c.pinCarriers()) {
            this.affinity = CpuAffinity.load();
            this.processCpus = affinity.processCpus();
        } else {
            this.affinity = null;
            this.processCpus = null;
        }
        this.vtFactory = Carrier.virtualThreadFactory(self);
        this.container = GoroutineContainer.create("gmp4j runtime '" + name + "'",
                () -> allGoroutines().stream().map(G::thread).filter(t -> t != null && t.isAlive()));
        this.sysmon = new Sysmon(self, c.schedtraceMillis());
    }

    /** This object as what it is: the chain's one concrete class. */
    final Scheduler self() {
        return (Scheduler) this;
    }

    // --- Read by sysmon, ProcResize and checkdead.

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

    long earliestTimerWhen() {
        return earliestTimer();
    }

    /**
     * The main goroutine's waiter to tell of a deadlock ({@link Checkdead}), or null when no
     * main goroutine runs or the check is off.
     */
    Scheduler.MainWait deadlockWaiter() {
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
        Netpoll np = netpoll;
        if (np != null && np.netpollAnyWaiters()) {
            return false; // goroutines wait for I/O that the poller will ready
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

    // --- Up-calls: parts of the chain further down that the parts above them call.

    /** {@link SchedLoop}: the loop an M runs until it exits. */
    abstract void schedule(M m);

    /** {@link SchedLoop}: wakes a poll or timer sleep that would sleep past {@code when}. */
    abstract void wakeNetPoller(long when);

    /** {@link SchedLoop}: the earliest pending timer over all Ps, or 0. */
    abstract long earliestTimer();

    /** {@link Placement}: puts {@code n} tasks of {@code batch} on the global queue and wakes Ms. */
    abstract void globrunqputbatch(Runnable[] batch, int n);

    /** {@link Scheduler}: live goroutines. */
    abstract long numGoroutine();

    /** {@link Scheduler}: the live goroutines for the dump. */
    abstract List<G> allGoroutines();

    /** {@link Scheduler}: reports a task that threw on an M. */
    abstract void reportTaskFailure(String what, Throwable t);

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
}
