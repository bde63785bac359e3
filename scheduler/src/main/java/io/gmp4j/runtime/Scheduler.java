package io.gmp4j.runtime;

import io.gmp4j.GoRuntime;
import io.gmp4j.SchedStats;
import io.gmp4j.runtime.spi.Netpoll;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

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
 * <h2>Where the code is</h2>
 * One object, its code split by responsibility along a chain of classes (as JCTools splits a
 * queue's fields): {@link SchedulerState} (the shared state and its construction),
 * {@link Workers} (idle Ps and Ms: wakep, startm, stopm, handoffp), {@link Placement} (the
 * executor entry: where a runnable task lands), {@link SchedLoop} (the loop, stealing, timers)
 * and this class (goroutines, syscalls and preemption, the panic and deadlock hooks, stats and
 * lifecycle). {@link Sysmon}, {@link ProcResize}, {@link Checkdead} and {@link Syscalls} are
 * objects of their own.
 *
 * <h2>What differs from Go, and why</h2>
 * The JDK cannot preempt a continuation, so preemption is cooperative (a flag checked at safe
 * points) and a goroutine that ignores it loses its P: sysmon CASes its P from {@code USER}
 * to {@code IDLE} and hands it to another M (see {@link P}'s status protocol). Runnext
 * inheritance is capped by count ({@link #MAX_RUNNEXT_INHERITS}) because sysmon cannot force
 * the 10 ms slice that bounds it in Go.
 */
public final class Scheduler extends SchedLoop implements Executor, AutoCloseable {
    /** Configuration for a new scheduler; see {@code io.gmp4j.GoRuntime.Builder}. */
    public record Config(String name, int maxProcs, int maxThreads, int maxHandoffThreads, int runqCapacity,
                         boolean goroutineRegistry, boolean checkDeadlock, long schedtraceMillis,
                         boolean pinCarriers, boolean leakProfile) {
        /** A configuration without the leak profile ({@link LeakProfile}). */
        public Config(String name, int maxProcs, int maxThreads, int maxHandoffThreads, int runqCapacity,
                      boolean goroutineRegistry, boolean checkDeadlock, long schedtraceMillis, boolean pinCarriers) {
            this(name, maxProcs, maxThreads, maxHandoffThreads, runqCapacity, goroutineRegistry, checkDeadlock,
                    schedtraceMillis, pinCarriers, false);
        }
    }

    /**
     * Starts a scheduler: all Ps idle, no M yet (the first wake-up starts one), sysmon running.
     * Most code builds one through {@code io.gmp4j.GoRuntime.builder()}.
     *
     * @throws IllegalArgumentException on a bad configuration
     * @throws IllegalStateException when the JVM lacks {@code --add-opens java.base/java.lang=ALL-UNNAMED}
     */
    public Scheduler(Config c) {
        super(c);
        // All Ps start idle; the first wakep starts an M for one of them.
        lock.lock();
        try {
            for (int i = gomaxprocs - 1; i >= 0; i--) {
                pidleput(allp[i]);
            }
        } finally {
            lock.unlock();
        }
        sysmon.start();
        Checkdead.register(this);
    }

    /** The seeded stream of this runtime's random choices, or null (see {@link #seed(long)}). */
    volatile Fastrand seeded;

    /**
     * Makes every random choice of this runtime (the Ms' steal order, a select's poll order)
     * from {@code seed}; at GOMAXPROCS 1 it also turns off sysmon's preemption by time, whose
     * requests land where the wall clock says. At GOMAXPROCS 1, a program whose goroutines
     * block only on gmp4j primitives then runs the same interleaving again for the same seed
     * (and a goroutine that never blocks keeps the one P, as before Go 1.14). Before the first
     * goroutine starts (no M may exist yet).
     *
     * @throws IllegalStateException when an M was started already, or a seed set
     */
    public void seed(long seed) {
        lock.lock();
        try {
            if (mcount > 0 || seeded != null) {
                throw new IllegalStateException("seed: " + this + " has started already (or has a seed)");
            }
            seeded = new Fastrand(seed);
        } finally {
            lock.unlock();
        }
    }

    /** Seeded at GOMAXPROCS 1: sysmon leaves the P alone (see {@link #seed(long)}). */
    boolean replayable() {
        return seeded != null && gomaxprocs == 1;
    }

    /** The seed given to {@link #seed(long)}, or empty. */
    public java.util.OptionalLong seed() {
        Fastrand f = seeded;
        return f == null ? java.util.OptionalLong.empty() : java.util.OptionalLong.of(f.seed());
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
        SchedLatency.created(g);
        Bubble b = Bubble.inherit();
        if (b != null) {
            g.bubble = b; // before the start: the thread's start publishes it
            b.started(g);
        }
        Thread t = vtFactory.newThread(() -> goexit(g));
        g.thread = t;
        Carrier.bindG(t, g); // the thread's uncaught-exception handler is its G: see G.current()
        if (allgs != null) {
            allgs.add(m != null && m.sched == this ? m : null, g, liveCount);
        }
        SchedTrace.create(this, m, g);
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
        SchedLatency.started(g);
        try {
            f.run();
        } catch (Throwable t) {
            if (g.bubble != null) {
                g.bubble.panicked(g.goid, t); // before forget: the bubble's root may return there
            }
            throw t;
        } finally {
            forget(g);
        }
    }

    private void forget(G g) {
        SchedTrace.end(this, g);
        if (allgs != null) {
            allgs.remove(g);
        }
        if (g.bubble != null) {
            g.bubble.exited(g);
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

    /** Live goroutines (a snapshot of the registry, for the dump and tests); empty when the registry is off. */
    @Override
    public List<G> allGoroutines() {
        return allgs == null ? new ArrayList<>() : allgs.snapshot();
    }

    /**
     * Creates a runtime timer whose callback runs on this runtime's Ms; created by a member of a
     * synctest bubble, a timer of that bubble instead (its clock, its root runs the callback).
     */
    public RuntimeTimer newTimer(Runnable callback) {
        return new RuntimeTimer(this, callback, Bubble.current());
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

    /** Notified when checkdead finds a deadlock while a main goroutine runs. */
    public interface MainWait {
        /** All goroutines are asleep. Called on an M; must not block. */
        void deadlock();
    }

    /**
     * How a {@link GoRuntime} hands out its scheduler: set once, by {@code GoRuntime}'s class
     * initializer, which has run before any {@code GoRuntime} exists, so {@link #of} never
     * reads it null. {@code GoRuntime} keeps no public accessor: the scheduler is not API.
     */
    private static volatile java.util.function.Function<GoRuntime, Scheduler> runtimeAccess;

    /**
     * The scheduler under {@code rt}: how gmp4j's own modules (channels, netpoll, actors, the
     * test module) reach the runtime beneath the API.
     */
    public static Scheduler of(GoRuntime rt) {
        return runtimeAccess.apply(java.util.Objects.requireNonNull(rt, "rt"));
    }

    /**
     * Called once, by {@code GoRuntime}'s class initializer, with the accessor {@link #of} uses.
     *
     * @throws IllegalStateException on a second call
     */
    public static synchronized void bindRuntimeAccess(java.util.function.Function<GoRuntime, Scheduler> access) {
        if (runtimeAccess != null) {
            throw new IllegalStateException("the GoRuntime accessor is bound already");
        }
        runtimeAccess = access;
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
        Netpoll np = netpoll;
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
                pinnedCpus(nprocs), carrierPins.sum(), np == null ? null : np.describe());
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


    /**
     * Stops the runtime: wakes and joins every M and sysmon. Goroutines still parked are
     * abandoned (as a Go program's are when main returns); waking one later fails with a
     * {@link RejectedExecutionException}. Ms busy in a goroutine that never parks are not
     * waited for beyond {@code timeoutMillis}.
     *
     * @return true when every runtime thread ended in time
     */
    public boolean close(long timeoutMillis) {
        Netpoll first = netpoll;
        if (first != null && first.runsOnGoroutines() && !life.closed) {
            // Per-P loops are owned by goroutines: they must run their shutdown while the Ms
            // still run goroutines, so they go first.
            first.shutdown(timeoutMillis);
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
                if (seeded != null) {
                    seeded.retire(); // once: closed is set under the same lock
                }
            }
        } finally {
            lock.unlock();
        }
        sysmon.shutdown();
        container.deregister();
        timerSleep.wakeup();
        Netpoll np = netpoll; // read after closed: see attachNetpoll
        if (np != null) {
            np.shutdown(timeoutMillis);
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
                    timerSleep.wakeup();
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


    @Override
    public String toString() {
        return "gmp4j runtime '" + name + "' (GOMAXPROCS=" + gomaxprocs + ")";
    }
}
