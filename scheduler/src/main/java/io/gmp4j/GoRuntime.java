package io.gmp4j;

import io.gmp4j.runtime.G;
import io.gmp4j.runtime.Panics;
import io.gmp4j.runtime.Scheduler;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * A gmp4j runtime: GOMAXPROCS processors (Ps), the platform threads that run them (Ms), a
 * sysmon thread, and the goroutines scheduled on them, as in Go's runtime.
 *
 * <p>Most programs use the process-wide default runtime through {@link Go}. Build an
 * independent one when a test or a subsystem needs its own processors:
 * <pre>{@code
 * try (GoRuntime rt = GoRuntime.builder().maxProcs(2).name("workers").build()) {
 *     rt.main(() -> {
 *         Go.go(() -> System.out.println("hello from a goroutine"));
 *     });
 * }
 * }</pre>
 * An M serves only its own runtime's goroutines; goroutines started from a goroutine stay in
 * the runtime of their parent. After {@link #close()}, waking one of its goroutines fails with
 * a {@link java.util.concurrent.RejectedExecutionException} that names the runtime.
 *
 * <p>An exception that ends a goroutine is Go's unrecovered panic: it ends {@link Go#main}'s
 * process with status 2, ends a runtime's own {@link #main} by throwing it to main's caller,
 * goes to the runtime's {@linkplain Builder#panicHandler panic handler} if it has one, and is
 * printed (the runtime going on) where no main runs.
 *
 * <p>Needs the JVM flag {@code --add-opens java.base/java.lang=ALL-UNNAMED}; without it the
 * first runtime fails to start with a message naming the flag.
 */
public final class GoRuntime implements AutoCloseable {
    private static volatile GoRuntime defaultRuntime;

    private static final VarHandle MAIN;

    static {
        try {
            MAIN = MethodHandles.lookup().findVarHandle(GoRuntime.class, "currentMain", MainWaiter.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
        Scheduler.bindRuntimeAccess(rt -> rt.sched);
    }

    private final Scheduler sched;
    private final PanicHandler panicHandler;
    /** The waiter of the main goroutine running now ({@link #main}), or null. */
    private volatile MainWaiter currentMain;

    private GoRuntime(Scheduler sched, PanicHandler panicHandler) {
        this.sched = sched;
        this.panicHandler = panicHandler;
        sched.setOwner(this); // one GoRuntime per scheduler: current() hands back this object
        sched.setPanicHandler(this::onPanic);
    }

    /** A builder for an independent runtime. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The process-wide default runtime, started on first use with GOMAXPROCS from
     * {@code -Dgmp4j.maxprocs}, else the {@code GOMAXPROCS} environment variable, else the
     * number of available processors. Its threads are daemons: the JVM may exit while it runs.
     * It has no panic handler: a goroutine's panic ends the process while {@link Go#main} runs,
     * and is printed otherwise (see {@link Builder#panicHandler}).
     */
    public static GoRuntime defaultRuntime() {
        GoRuntime rt = defaultRuntime;
        if (rt == null) {
            synchronized (GoRuntime.class) {
                rt = defaultRuntime;
                if (rt == null) {
                    rt = builder().name("gmp4j").build();
                    defaultRuntime = rt;
                }
            }
        }
        return rt;
    }

    /**
     * The runtime of the calling goroutine, or the default runtime when the caller is not a
     * goroutine.
     */
    public static GoRuntime current() {
        Scheduler s = Scheduler.current();
        return s != null && s.owner() instanceof GoRuntime rt ? rt : defaultRuntime();
    }

    /** Starts {@code f} as a goroutine of this runtime (Go's {@code go f()}). */
    public void go(Runnable f) {
        sched.go(f);
    }

    /**
     * Runs {@code main} as this runtime's main goroutine and returns when it returns, like a Go
     * program's {@code func main()}: goroutines still running are left behind.
     *
     * <p><b>Deadlock.</b> If every goroutine of the process (of every runtime) falls asleep in a
     * gmp4j wait with nothing that could wake them (no timer, syscall, network wait, running M,
     * goroutine in a JDK wait, or platform thread waiting on a gmp4j primitive), throws
     * {@link DeadlockError} with a goroutine dump, as Go reports
     * "all goroutines are asleep - deadlock!".
     *
     * <p><b>Panic.</b> An exception that ends another goroutine of this runtime while main runs
     * (Go's unrecovered panic) ends main too, unless the runtime has a
     * {@linkplain Builder#panicHandler panic handler}: this method throws that exception as is
     * (a {@link RuntimeException} or {@link Error}; anything else wrapped in an
     * {@link IllegalStateException}), with a suppressed exception whose message names the
     * goroutine, {@code goroutine 7 [running]: panicked while main ran}. So a test whose
     * goroutine fails fails too, and the JVM lives. The first of main's ends wins (its return,
     * a deadlock, a panic); a panic that comes after it is printed (see
     * {@link Builder#panicHandler}). The goroutines still running are left behind, as when main
     * returns. {@link Go#main} instead ends the process, as Go does.
     *
     * @throws DeadlockError         on a global deadlock (unless the check is off)
     * @throws RuntimeException      or Error thrown by {@code main}, rethrown as is, or by another goroutine
     * @throws IllegalStateException if a main goroutine of this runtime is running already
     */
    public void main(Runnable main) {
        main(main, false);
    }

    /**
     * {@link #main}; with {@code exitOnPanic} (Go.main), a panic of any goroutine of this
     * runtime, main's own included, prints Go's panic report to stderr and ends the process with
     * status 2 (see {@link Go#main}).
     */
    void main(Runnable main, boolean exitOnPanic) {
        MainWaiter w = new MainWaiter(Thread.currentThread(), exitOnPanic);
        if (!MAIN.compareAndSet(this, null, w)) {
            throw new IllegalStateException(this + " already runs a main goroutine");
        }
        sched.setMainWait(w);
        try {
            sched.go(() -> {
                try {
                    main.run();
                    w.end(DONE);
                } catch (Throwable t) {
                    w.panicked(G.current().id(), t, true);
                }
            });
            while (w.outcome == null) {
                LockSupport.park(w);
            }
        } finally {
            sched.setMainWait(null);
            currentMain = null;
        }
        Object o = w.outcome;
        if (o == DEADLOCK) {
            throw new DeadlockError(sched.dump());
        }
        if (o instanceof Panicked p) {
            Throwable t = p.panic();
            if (!p.mainGoroutine()) {
                t.addSuppressed(new GoroutinePanicked(p.goid()));
            }
            if (t instanceof RuntimeException re) {
                throw re;
            }
            if (t instanceof Error e) {
                throw e;
            }
            throw new IllegalStateException("goroutine " + p.goid() + " failed", t);
        }
    }

    /** Where this runtime's goroutine panics go: see {@link Builder#panicHandler}. */
    private void onPanic(Throwable panic, long goid) {
        PanicHandler h = panicHandler;
        if (h != null) {
            try {
                h.panic(goid, panic);
            } catch (Throwable ht) {
                // the handler's own failure is reported with the panic it was handed; serving goes on
                Panics.print(goid, panic);
                System.err.println("gmp4j: the panic handler of " + this + " failed:");
                ht.printStackTrace();
            }
            return;
        }
        MainWaiter w = currentMain;
        if (w != null && w.panicked(goid, panic, false)) {
            return;
        }
        Panics.print(goid, panic);
    }

    private static final Object DONE = new Object();
    private static final Object DEADLOCK = new Object();
    /** Go.main's outcome once a panic is ending the process. */
    private static final Object EXITING = new Object();

    private record Panicked(long goid, Throwable panic, boolean mainGoroutine) {
    }

    /** The marker {@link #main} adds to a panic of a goroutine other than main's. */
    private static final class GoroutinePanicked extends RuntimeException {
        private static final long serialVersionUID = 1L;

        GoroutinePanicked(long goid) {
            super("goroutine " + goid + " [running]: panicked while main ran", null, false, false);
        }
    }

    private static final class MainWaiter implements Scheduler.MainWait {
        final Thread waiter;
        final boolean exitOnPanic;
        /** DONE, DEADLOCK, a Panicked, or EXITING: set once, by the first of main's ends. */
        volatile Object outcome;

        MainWaiter(Thread waiter, boolean exitOnPanic) {
            this.waiter = waiter;
            this.exitOnPanic = exitOnPanic;
        }

        boolean end(Object o) {
            if (!OUTCOME.compareAndSet(this, null, o)) {
                return false;
            }
            LockSupport.unpark(waiter);
            return true;
        }

        @Override
        public void deadlock() {
            end(DEADLOCK);
        }

        /**
         * A goroutine ended with {@code panic}: true if that ends main (or the process), false
         * if main had ended already. Runs on the goroutine's thread.
         */
        boolean panicked(long goid, Throwable panic, boolean mainGoroutine) {
            if (!exitOnPanic) {
                return end(new Panicked(goid, panic, mainGoroutine));
            }
            if (!OUTCOME.compareAndSet(this, null, EXITING)) {
                // Another panic is ending the process (Go prints only the first), or main ended.
                return outcome == EXITING;
            }
            Panics.print(goid, panic);
            // Go exits with status 2 and runs no deferred call of another goroutine. exit, not
            // halt: shutdown hooks, the JVM's atexit (log flushing, JFR, deleteOnExit), run;
            // other goroutines' finally blocks do not.
            Runtime.getRuntime().exit(2);
            return true;
        }

        private static final VarHandle OUTCOME;

        static {
            try {
                OUTCOME = MethodHandles.lookup().findVarHandle(MainWaiter.class, "outcome", Object.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }
    }

    /**
     * Where a goroutine's panic goes in a runtime built with
     * {@link Builder#panicHandler}: an exception that ended a goroutine.
     */
    @FunctionalInterface
    public interface PanicHandler {
        /**
         * Called once per panic, on the panicking goroutine's thread after the goroutine ended
         * (its finally blocks have run). What it throws is printed with the panic; the runtime
         * keeps serving either way.
         *
         * @param goroutineId the id of the goroutine that ended
         * @param panic       what it threw
         */
        void panic(long goroutineId, Throwable panic);
    }

    /** Go's {@code runtime.NumGoroutine()} for this runtime. */
    public long numGoroutine() {
        return sched.numGoroutine();
    }

    /** Go's {@code runtime.GOMAXPROCS(0)}: the number of Ps. */
    public int gomaxprocs() {
        return sched.gomaxprocs();
    }

    /**
     * Go's {@code runtime.GOMAXPROCS(n)}: sets the number of Ps to {@code n} and returns the
     * previous number; {@code n < 1} only returns the current number. Stops the world while it
     * resizes: every goroutine pauses at its next safe point or park (one with no safe point
     * delays the change by up to 10 ms, then runs on without its P until it reaches one).
     * Goroutines queued on a removed P move to the global queue and its timers to a remaining
     * P. Callable from goroutines and from platform threads.
     *
     * @return the previous GOMAXPROCS
     * @throws IllegalArgumentException when {@code n} exceeds the builder's {@code maxThreads}
     * @throws IllegalStateException when this runtime is closed, or when called from a task
     *     that runs directly on one of its Ms (a timer callback, a behaviour actor)
     */
    public int gomaxprocs(int n) {
        return sched.gomaxprocs(n);
    }

    /** A snapshot of the scheduler state and counters. */
    public SchedStats stats() {
        return sched.stats();
    }

    /**
     * Go's {@code metrics.Read}: reads the named {@link Metrics} ({@code /sched/...} names, see
     * {@link Metrics#all()}) at one moment; every one when none is named. The goroutine state
     * counts cost one walk over the live goroutines, done once however many of them are named.
     *
     * @throws IllegalArgumentException for a name that is not a gmp4j metric
     */
    public Metrics metrics(String... names) {
        return Metrics.read(sched, names);
    }

    /**
     * Go 1.26's goroutine leak profile: the goroutines of this runtime blocked for ever, because
     * what they wait on (a channel, a select's channels, a sync primitive) can no longer be
     * reached by any running goroutine, thread or static field, as the JVM's own reachability
     * decides. Runs a full collection ({@code System.gc()}) and returns them in id order, each
     * once. Needs a runtime built with {@link Builder#leakProfile}. What it can and cannot find:
     * {@link io.gmp4j.runtime.LeakProfile}.
     *
     * @throws IllegalStateException when this runtime keeps no leak profile, or the JVM ignores
     *     {@code System.gc()}
     */
    public java.util.List<LeakedGoroutine> leakedGoroutines() {
        return io.gmp4j.runtime.LeakProfile.report(sched);
    }

    /** A Go-style dump of every live goroutine: {@code goroutine 17 [chan receive]:} and its stack. */
    public String dump() {
        return sched.dump();
    }

    /** True once closed. */
    public boolean isClosed() {
        return sched.isClosed();
    }

    /**
     * Stops this runtime's threads (waiting up to 10 s for Ms busy in a goroutine). Goroutines
     * still parked are abandoned. The default runtime cannot be closed.
     *
     * @throws UnsupportedOperationException for the default runtime
     */
    @Override
    public void close() {
        if (this == defaultRuntime) {
            throw new UnsupportedOperationException("the default gmp4j runtime lives as long as the JVM");
        }
        sched.close();
    }

    @Override
    public String toString() {
        return sched.toString();
    }

    /**
     * Configures an independent runtime. GOMAXPROCS precedence: {@link #maxProcs}, then
     * {@code -Dgmp4j.maxprocs}, then the {@code GOMAXPROCS} environment variable, then the
     * number of available processors.
     */
    public static final class Builder {
        private String name = "gmp4j-" + Integer.toHexString(System.identityHashCode(this));
        private int maxProcs;
        private int maxThreads = Tunable.MAXTHREADS.intValue(10_000);
        private int maxHandoffThreads = Tunable.MAXHANDOFFTHREADS.intValue(256);
        private int runqSize = Tunable.RUNQSIZE.intValue(256);
        private boolean registry = Tunable.REGISTRY.onUnlessFalse();
        private boolean checkDeadlock = Tunable.CHECKDEAD.onUnlessFalse();
        private boolean leakProfile = Tunable.LEAKPROFILE.onIfTrue();
        private long schedtraceMillis = Tunable.SCHEDTRACE.longValue(0L);
        private Boolean pinCarriers;
        private PanicHandler panicHandler;
        private Long seed;

        private Builder() {
        }

        /** Thread-name prefix of this runtime's Ms and sysmon. */
        public Builder name(String name) {
            this.name = name;
            return this;
        }

        /** GOMAXPROCS: the number of Ps, >= 1. */
        public Builder maxProcs(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("maxProcs must be >= 1, got " + n);
            }
            this.maxProcs = n;
            return this;
        }

        /** Cap on Ms (Go's debug.SetMaxThreads, default 10000). */
        public Builder maxThreads(int n) {
            this.maxThreads = n;
            return this;
        }

        /** Cap on Ms created to take Ps handed off from blocked goroutines (default 256). */
        public Builder maxHandoffThreads(int n) {
            this.maxHandoffThreads = n;
            return this;
        }

        /** Local run queue capacity, a power of two (Go: 256). */
        public Builder runQueueSize(int n) {
            this.runqSize = n;
            return this;
        }

        /**
         * Keep a registry of live goroutines (default on): the goroutine dump and the deadlock
         * report need it. It costs an append per goroutine on the starting M and a flag store
         * when the goroutine ends (about 10 ns, measured by {@code ./gmp4j bench floor}).
         */
        public Builder goroutineRegistry(boolean on) {
            this.registry = on;
            return this;
        }

        /**
         * Keep Go 1.26's goroutine leak profile, for {@link GoRuntime#leakedGoroutines} (default
         * off, as Go's {@code GOEXPERIMENT=goroutineleakprofile}; {@code -Dgmp4j.leakprofile=true}
         * turns it on when the builder does not say). The goroutine registry then holds its
         * goroutines through weak references: one more object per goroutine and a few stores
         * per park. Needs the registry.
         */
        public Builder leakProfile(boolean on) {
            this.leakProfile = on;
            return this;
        }

        /** Report "all goroutines are asleep - deadlock!" from {@link GoRuntime#main} (default on). */
        public Builder checkDeadlock(boolean on) {
            this.checkDeadlock = on;
            return this;
        }

        /**
         * Hands every goroutine panic of this runtime (an exception that ended a goroutine) to
         * {@code handler}, once per panic, and keeps serving: log-and-continue, for a server
         * that must outlive a failing request. With a handler, a panic ends neither
         * {@link GoRuntime#main} nor the process.
         *
         * <p>Without one: while {@link GoRuntime#main} runs, a panic ends it (and
         * {@link Go#main} ends the process with status 2, as Go does). While no main runs (a
         * runtime used only through {@link GoRuntime#go}, the default runtime used by
         * {@link Go#go} from a platform thread, an actor system's runtime), the panic is
         * printed as Go prints it ({@code panic: }, the exception, {@code goroutine 7 [running]:}
         * and the stack, on stderr) and the runtime goes on. Go has no such runtime: its
         * process's main is always the main goroutine. Here the process's main is a Java thread
         * the runtime does not own, and a library's runtime that killed the JVM it was lent
         * would surprise its host; the report keeps the failure from passing silently.
         *
         * <pre>{@code
         * GoRuntime rt = GoRuntime.builder()
         *         .panicHandler((id, e) -> log.error("goroutine " + id + " panicked", e))
         *         .build();
         * }</pre>
         */
        public Builder panicHandler(PanicHandler handler) {
            if (handler == null) {
                throw new NullPointerException("panicHandler: null handler");
            }
            this.panicHandler = handler;
            return this;
        }

        /** Print Go's schedtrace line to stderr every {@code millis} (0: off). */
        public Builder schedtrace(long millis) {
            this.schedtraceMillis = millis;
            return this;
        }

        /**
         * Pin each M (carrier thread) to a CPU of its own P while it holds that P: P i runs on the
         * i-th CPU the process may run on (its main thread's affinity mask, as {@code taskset}
         * or a cgroup cpuset set it), wrapping when there are more Ps than CPUs. Off by default, as in Go;
         * {@code -Dgmp4j.pincarriers=true} turns it on when the builder does not say. It helps
         * where the kernel places a woken M on its waker's CPU while another idles (measured in
         * benchmarks/PERFORMANCE-LOG.md); it costs a system call each time an M takes a P
         * of another CPU, and goroutines blocked in {@link io.gmp4j.Syscall#blocking} keep the
         * pin of the P they left. A platform thread that a goroutine starts inherits its M's
         * CPU (Linux's rule; the runtime's own threads undo it): start thread pools from outside
         * goroutines. Linux only; {@link #build} fails clearly elsewhere, and
         * without {@code --enable-native-access=ALL-UNNAMED}.
         */
        public Builder pinCarriers(boolean on) {
            this.pinCarriers = on;
            return this;
        }

        /**
         * A seeded schedule, for replaying a test's interleaving: every random choice of the
         * scheduler (the Ms' steal order) and of {@code Select} (the poll order of its cases)
         * comes from {@code seed}. At {@code maxProcs(1)} sysmon also stops preempting by time
         * (a goroutine that never blocks keeps the one P, as before Go 1.14), and a program
         * whose goroutines wait only on gmp4j primitives (channels, select, sync; no timers,
         * sockets or JDK waits) runs the same interleaving again for the same seed. The gmp4j-test extension prints the seed of a
         * failing test and takes one back ({@code @GoTest(seed = ...)}).
         */
        public Builder seed(long seed) {
            this.seed = seed;
            return this;
        }

        /** Starts the runtime. */
        public GoRuntime build() {
            int procs = maxProcs > 0 ? maxProcs : resolveMaxProcs();
            boolean pin = pinCarriers != null ? pinCarriers : resolvePinCarriers();
            if (Integer.bitCount(runqSize) != 1 || runqSize < 4) {
                throw new IllegalArgumentException("run queue size must be a power of two >= 4, got " + runqSize);
            }
            Scheduler s = new Scheduler(new Scheduler.Config(name, procs, Math.max(maxThreads, procs),
                    maxHandoffThreads, runqSize, registry, checkDeadlock, schedtraceMillis, pin, leakProfile));
            if (seed != null) {
                s.seed(seed);
            }
            return new GoRuntime(s, panicHandler);
        }

        static boolean resolvePinCarriers() {
            String prop = Tunable.PINCARRIERS.value();
            if (prop == null || prop.isBlank()) {
                return false;
            }
            return switch (prop.trim()) {
                case "true" -> true;
                case "false" -> false;
                default -> throw new IllegalArgumentException(
                        "-Dgmp4j.pincarriers must be true or false, got '" + prop + "'");
            };
        }

        static int resolveMaxProcs() {
            String prop = Tunable.MAXPROCS.value();
            if (prop != null && !prop.isBlank()) {
                return parseProcs(prop, "-Dgmp4j.maxprocs");
            }
            String env = System.getenv("GOMAXPROCS");
            if (env != null && !env.isBlank()) {
                return parseProcs(env, "GOMAXPROCS");
            }
            return Runtime.getRuntime().availableProcessors();
        }

        static int parseProcs(String value, String source) {
            int n;
            try {
                n = Integer.parseInt(value.trim());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(source + " must be a positive integer, got '" + value + "'");
            }
            if (n < 1) {
                throw new IllegalArgumentException(source + " must be a positive integer, got '" + value + "'");
            }
            return n;
        }
    }
}
