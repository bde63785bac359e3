package io.gmp4j;

import io.gmp4j.runtime.Netpoller;
import io.gmp4j.runtime.SchedStats;
import io.gmp4j.runtime.Scheduler;

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
 * <p>Needs the JVM flag {@code --add-opens java.base/java.lang=ALL-UNNAMED}; without it the
 * first runtime fails to start with a message naming the flag.
 */
public final class GoRuntime implements AutoCloseable {
    private static volatile GoRuntime defaultRuntime;

    private final Scheduler sched;

    private GoRuntime(Scheduler sched) {
        this.sched = sched;
        sched.setOwner(this); // one GoRuntime per scheduler: current() hands back this object
    }

    /** A builder for an independent runtime. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The process-wide default runtime, started on first use with GOMAXPROCS from
     * {@code -Dgmp4j.maxprocs}, else the {@code GOMAXPROCS} environment variable, else the
     * number of available processors. Its threads are daemons: the JVM may exit while it runs.
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
     * program's {@code func main()}: goroutines still running are left behind. If every
     * goroutine falls asleep on a gmp4j wait with nothing that could wake them (no timer,
     * syscall, network wait, or platform thread waiting on a gmp4j primitive), throws
     * {@link DeadlockError} with a goroutine dump, as Go reports
     * "all goroutines are asleep - deadlock!".
     *
     * @throws DeadlockError on a global deadlock (unless the check is off)
     * @throws RuntimeException or Error thrown by {@code main}, rethrown as is
     */
    public void main(Runnable main) {
        MainWaiter w = new MainWaiter(Thread.currentThread());
        sched.setMainWait(w);
        try {
            sched.go(() -> {
                try {
                    main.run();
                } catch (Throwable t) {
                    w.failure = t;
                } finally {
                    w.finish();
                }
            });
            while (!w.done && !w.deadlocked) {
                LockSupport.park(w);
            }
        } finally {
            sched.setMainWait(null);
        }
        if (!w.done && w.deadlocked) {
            throw new DeadlockError(sched.dump());
        }
        Throwable t = w.failure;
        if (t instanceof RuntimeException re) {
            throw re;
        }
        if (t instanceof Error e) {
            throw e;
        }
        if (t != null) {
            throw new IllegalStateException("main goroutine failed", t);
        }
    }

    private static final class MainWaiter implements Scheduler.MainWait {
        final Thread waiter;
        volatile boolean done;
        volatile boolean deadlocked;
        volatile Throwable failure;

        MainWaiter(Thread waiter) {
            this.waiter = waiter;
        }

        void finish() {
            done = true;
            LockSupport.unpark(waiter);
        }

        @Override
        public void deadlock() {
            deadlocked = true;
            LockSupport.unpark(waiter);
        }
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

    /** A Go-style dump of every live goroutine: {@code goroutine 17 [chan receive]:} and its stack. */
    public String dump() {
        return sched.dump();
    }

    /** The scheduler, for the other gmp4j modules (channels, netpoll, actors). */
    public Scheduler scheduler() {
        return sched;
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
        private int maxThreads = Integer.getInteger("gmp4j.maxthreads", 10_000);
        private int maxHandoffThreads = Integer.getInteger("gmp4j.maxhandoffthreads", 256);
        private int runqSize = Integer.getInteger("gmp4j.runqsize", 256);
        private boolean registry = !"false".equals(System.getProperty("gmp4j.registry"));
        private boolean checkDeadlock = !"false".equals(System.getProperty("gmp4j.checkdead"));
        private long schedtraceMillis = Long.getLong("gmp4j.schedtrace", 0L);
        private Netpoller netpoller;
        private Boolean pinCarriers;

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

        /** Report "all goroutines are asleep - deadlock!" from {@link GoRuntime#main} (default on). */
        public Builder checkDeadlock(boolean on) {
            this.checkDeadlock = on;
            return this;
        }

        /** Print Go's schedtrace line to stderr every {@code millis} (0: off). */
        public Builder schedtrace(long millis) {
            this.schedtraceMillis = millis;
            return this;
        }

        /** The network poller the scheduler polls in findRunnable (the netpoll module's). */
        public Builder netpoller(Netpoller poller) {
            this.netpoller = poller;
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

        /** Starts the runtime. */
        public GoRuntime build() {
            int procs = maxProcs > 0 ? maxProcs : resolveMaxProcs();
            boolean pin = pinCarriers != null ? pinCarriers : resolvePinCarriers();
            if (Integer.bitCount(runqSize) != 1 || runqSize < 4) {
                throw new IllegalArgumentException("run queue size must be a power of two >= 4, got " + runqSize);
            }
            return new GoRuntime(new Scheduler(new Scheduler.Config(name, procs, Math.max(maxThreads, procs),
                    maxHandoffThreads, runqSize, registry, checkDeadlock, schedtraceMillis, netpoller, pin)));
        }

        static boolean resolvePinCarriers() {
            String prop = System.getProperty("gmp4j.pincarriers");
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
            String prop = System.getProperty("gmp4j.maxprocs");
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
