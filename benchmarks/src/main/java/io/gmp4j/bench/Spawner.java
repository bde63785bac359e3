package io.gmp4j.bench;

import io.gmp4j.Go;

/**
 * How a benchmark body starts a concurrent task. The bodies in {@link Bodies} only ever spawn
 * through this interface, so every implementation runs the identical code.
 */
@FunctionalInterface
public interface Spawner {
    /** Starts {@code r} as a new goroutine / virtual thread. */
    void spawn(Runnable r);

    /**
     * gmp4j: {@link Go#go}, which puts the goroutine on the caller goroutine's runtime (the
     * body runs inside a goroutine of a runtime built with the wanted GOMAXPROCS).
     */
    Spawner GMP4J = Go::go;

    /** The JDK's virtual threads on the default ForkJoinPool scheduler. */
    Spawner JDK = Thread::startVirtualThread;
}
