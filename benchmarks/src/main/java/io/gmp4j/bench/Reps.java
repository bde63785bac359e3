package io.gmp4j.bench;

/**
 * The repetition plan of one benchmark child: at least {@code warmup} warm-up repetitions
 * lasting at least {@code minWarmupNanos} together, then at least {@code measured} measured
 * repetitions lasting at least {@code minMeasureNanos} (at most {@link #MAX_MEASURED}).
 *
 * <p>The time floors matter for short bodies: three warm-up runs of {@code fib} are 30 ms,
 * too little for C2 to compile the scheduler's paths, and its first twenty measured runs
 * drifted from 11 ms to 5 ms. The floors are the same for every implementation (BenchMain
 * passes them to the JVM children as {@code -Dgmp4j.bench.minWarmupMs}/{@code minMeasureMs}
 * and to the Go child as {@code GMP4J_BENCH_MIN_WARMUP_MS}/{@code GMP4J_BENCH_MIN_MEASURE_MS}).
 *
 * <pre>{@code
 * for (Reps r = Reps.of(warmup, measured); r.next(); ) {
 *     long ns = runOnce();
 *     if (r.measuring()) samples.add(ns);
 * }
 * }</pre>
 */
public final class Reps {
    /** A cap on measured repetitions, however short the body. */
    static final int MAX_MEASURED = 500;

    private final int warmup;
    private final int measured;
    private final long minWarmupNanos;
    private final long minMeasureNanos;
    private boolean started;
    private boolean measuring;
    private long phaseStart;
    private int warmDone;
    private int measuredDone;

    Reps(int warmup, int measured, long minWarmupNanos, long minMeasureNanos) {
        if (warmup < 0 || measured < 1 || minWarmupNanos < 0 || minMeasureNanos < 0) {
            throw new IllegalArgumentException("bad repetition plan: warmup " + warmup + ", measured " + measured
                    + ", floors " + minWarmupNanos + "/" + minMeasureNanos + " ns");
        }
        this.warmup = warmup;
        this.measured = measured;
        this.minWarmupNanos = minWarmupNanos;
        this.minMeasureNanos = minMeasureNanos;
    }

    /** The plan with the time floors BenchMain passed down (none when run by hand). */
    public static Reps of(int warmup, int measured) {
        return new Reps(warmup, measured, Long.getLong("gmp4j.bench.minWarmupMs", 0) * 1_000_000,
                Long.getLong("gmp4j.bench.minMeasureMs", 0) * 1_000_000);
    }

    /** Whether another repetition runs; call once before each. */
    public boolean next() {
        long now = System.nanoTime();
        if (!started) {
            started = true;
            phaseStart = now;
        }
        if (!measuring) {
            if (warmDone < warmup || now - phaseStart < minWarmupNanos) {
                warmDone++;
                return true;
            }
            measuring = true;
            phaseStart = now;
        }
        if (measuredDone < measured || (measuredDone < MAX_MEASURED && now - phaseStart < minMeasureNanos)) {
            measuredDone++;
            return true;
        }
        return false;
    }

    /** Whether the repetition that {@link #next} just allowed is a measured one. */
    public boolean measuring() {
        return measuring;
    }

    /** Repetitions allowed so far (warm-up and measured). */
    int count() {
        return warmDone + measuredDone;
    }
}
