package io.gmp4j.bench;

import io.gmp4j.GoRuntime;

/**
 * Where a benchmark body runs: inside a goroutine of a gmp4j runtime, or inside a JDK virtual
 * thread. {@link #run} blocks the calling (platform) thread until the body returned.
 */
public interface BenchContext extends AutoCloseable {
    /** The spawner bodies use inside this context. */
    Spawner spawner();

    /** Runs {@code body} inside the context and waits for it; rethrows what it threw. */
    void run(Runnable body);

    /** Scheduler counters, for the report (empty when the implementation has none). */
    default String stats() {
        return "";
    }

    @Override
    default void close() {
    }

    /**
     * A context for implementation {@code impl} ("gmp4j", "jdk", or "jox", whose channels run on
     * JDK virtual threads like jdk) with {@code procs} processors.
     */
    static BenchContext of(String impl, int procs) {
        return switch (impl) {
            case "gmp4j" -> new Gmp4j(GoRuntime.builder().maxProcs(procs).name("bench").build());
            case "jdk", "jox" -> new Jdk();
            default -> throw new IllegalArgumentException("unknown impl '" + impl + "' (gmp4j, jdk, jox)");
        };
    }

    /** gmp4j: the body is the main goroutine of a runtime built with maxProcs(procs). */
    record Gmp4j(GoRuntime rt) implements BenchContext {
        @Override
        public Spawner spawner() {
            return Spawner.GMP4J;
        }

        @Override
        public void run(Runnable body) {
            rt.main(body);
        }

        @Override
        public String stats() {
            return rt.stats().toString();
        }

        @Override
        public void close() {
            rt.close();
        }
    }

    /**
     * jdk: the body runs in a virtual thread of the default scheduler (its parallelism set by
     * {@code -Djdk.virtualThreadScheduler.parallelism}).
     */
    record Jdk() implements BenchContext {
        @Override
        public Spawner spawner() {
            return Spawner.JDK;
        }

        @Override
        public void run(Runnable body) {
            runAndJoin(r -> Thread.ofVirtual().name("bench-main").start(r), body);
        }
    }

    /**
     * direct: the body runs in a virtual thread of {@link DirectScheduler} (one carrier thread, a
     * plain queue): the floor of the JDK's custom-scheduler hook, for the {@code floor} rows.
     */
    record Direct(DirectScheduler sched) implements BenchContext {
        @Override
        public Spawner spawner() {
            return sched::start;
        }

        @Override
        public void run(Runnable body) {
            runAndJoin(sched::start, body);
        }

        @Override
        public void close() {
            sched.close();
        }
    }

    /** Starts {@code body} with {@code starter}, waits for it, rethrows what it threw. */
    private static void runAndJoin(java.util.function.Function<Runnable, Thread> starter, Runnable body) {
        Throwable[] failure = new Throwable[1];
        Thread t = starter.apply(() -> {
            try {
                body.run();
            } catch (Throwable e) {
                failure[0] = e;
            }
        });
        try {
            t.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the benchmark body", e);
        }
        Throwable e = failure[0];
        if (e instanceof RuntimeException re) {
            throw re;
        }
        if (e instanceof Error err) {
            throw err;
        }
        if (e != null) {
            throw new IllegalStateException(e);
        }
    }
}
