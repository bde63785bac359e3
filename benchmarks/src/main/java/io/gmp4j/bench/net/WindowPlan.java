package io.gmp4j.bench.net;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;

/**
 * How a load run is measured: {@code warmups} windows thrown away, then {@code measured}
 * windows of {@code windowMillis} each; each measured window is one sample (the reported
 * figure is their median). {@code serverPid} > 0 names the server process whose CPU time is
 * read at each window's edges; 0 means no CPU figure.
 */
public record WindowPlan(int warmups, int measured, long windowMillis, long serverPid) {
    public WindowPlan {
        if (warmups < 0 || measured < 1 || windowMillis < 1 || serverPid < 0) {
            throw new IllegalArgumentException("need warmups >= 0, measured >= 1, windowMillis >= 1, serverPid >= 0;"
                    + " got " + warmups + ", " + measured + ", " + windowMillis + ", " + serverPid);
        }
    }

    /**
     * One measured window: its length, the server's CPU time in it (-1 when not measured) and
     * what the scenario harvested at its end.
     */
    public record Window<S>(long nanos, long serverCpuNanos, S data) {
        /** The window's length in seconds. */
        public double seconds() {
            return nanos / 1e9;
        }
    }

    /**
     * Runs the windows while the load runs: {@code harvest} is called once at the start (what
     * it returns is dropped: it resets the scenario's interval counters) and at the end of each
     * window, and returns what accumulated since its last call.
     */
    public <S> List<Window<S>> run(Supplier<S> harvest) {
        ProcessCpu cpu = serverPid > 0 ? ProcessCpu.of(serverPid) : null;
        List<Window<S>> out = new ArrayList<>();
        harvest.get();
        long start = System.nanoTime();
        long cpuStart = cpu != null ? cpu.nanos() : -1;
        long windowNanos = windowMillis * 1_000_000L;
        for (int w = 0; w < warmups + measured; w++) {
            waitUntil(start + windowNanos);
            S data = harvest.get();
            long now = System.nanoTime();
            long cpuNow = cpu != null ? cpu.nanos() : -1;
            if (w >= warmups) {
                out.add(new Window<>(now - start, cpu != null ? cpuNow - cpuStart : -1, data));
            }
            start = now;
            cpuStart = cpuNow;
        }
        return out;
    }

    /** Parks the caller until {@link System#nanoTime} reaches {@code end}: a window's length, timing and not synchronisation. */
    static void waitUntil(long end) {
        for (long left; (left = end - System.nanoTime()) > 0; ) {
            LockSupport.parkNanos(left);
        }
    }
}
