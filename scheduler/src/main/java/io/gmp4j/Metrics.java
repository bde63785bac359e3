package io.gmp4j;

import io.gmp4j.runtime.SchedMetrics;
import io.gmp4j.runtime.Scheduler;

import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Go's {@code runtime/metrics} for one runtime: the {@code /sched/} metrics of Go 1.26 with
 * Go's names, units and meanings, read at one moment. {@link GoRuntime#metrics(String...)} is
 * Go's {@code metrics.Read(samples)}: names in, values out; {@link GoRuntime#metrics()} reads
 * them all. {@link #all()} is Go's {@code metrics.All()}.
 *
 * <pre>{@code
 * Metrics m = rt.metrics(Metrics.GOROUTINES_WAITING, Metrics.LATENCIES);
 * long waiting = m.value(Metrics.GOROUTINES_WAITING);
 * Metrics.Histogram h = m.histogram(Metrics.LATENCIES);
 * double p99 = h.quantile(0.99); // seconds
 * }</pre>
 *
 * <p>The goroutine state counts walk the goroutine registry (a read per live goroutine), so they
 * need it ({@link GoRuntime.Builder#goroutineRegistry}); without it they are absent
 * ({@link #has} is false). The other metrics read counters only.
 */
public final class Metrics {
    /** Go: "The current runtime.GOMAXPROCS setting, or the number of operating system threads that can execute user-level Go code simultaneously." */
    public static final String GOMAXPROCS = "/sched/gomaxprocs:threads";
    /** Go: "Count of goroutines created since program start." Here: since the runtime started. Cumulative. */
    public static final String GOROUTINES_CREATED = "/sched/goroutines-created:goroutines";
    /** Go: "Approximate count of goroutines running or blocked in a system call or cgo call." Here: inside {@link Syscall#blocking}. */
    public static final String GOROUTINES_NOT_IN_GO = "/sched/goroutines/not-in-go:goroutines";
    /** Go: "Approximate count of goroutines ready to execute, but not executing." */
    public static final String GOROUTINES_RUNNABLE = "/sched/goroutines/runnable:goroutines";
    /** Go: "Approximate count of goroutines executing." Here: mounted on an M. */
    public static final String GOROUTINES_RUNNING = "/sched/goroutines/running:goroutines";
    /** Go: "Approximate count of goroutines waiting on a resource (I/O or sync primitives)." */
    public static final String GOROUTINES_WAITING = "/sched/goroutines/waiting:goroutines";
    /** Go: "Count of live goroutines." */
    public static final String GOROUTINES = "/sched/goroutines:goroutines";
    /**
     * Go: "Distribution of the time goroutines have spent in the scheduler in a runnable state
     * before actually running. Bucket counts increase monotonically." Sampled as Go samples it,
     * one transition per goroutine in a period, but with a period of 64 where Go's is 8 (a clock
     * read costs too much at gmp4j's ping-pong speed): the counts are about a 64th of the
     * transitions, the distribution theirs.
     */
    public static final String LATENCIES = "/sched/latencies:seconds";
    /** Go: "The current count of live threads that are owned by the Go runtime." Here: the Ms and sysmon. */
    public static final String THREADS = "/sched/threads/total:threads";

    private static final List<String> ALL = List.of(GOMAXPROCS, GOROUTINES_CREATED, GOROUTINES_NOT_IN_GO,
            GOROUTINES_RUNNABLE, GOROUTINES_RUNNING, GOROUTINES_WAITING, GOROUTINES, LATENCIES, THREADS);

    private static final Map<String, String> DESCRIPTIONS = Map.of(
            GOMAXPROCS, "The current GOMAXPROCS setting: the number of Ps.",
            GOROUTINES_CREATED, "Count of goroutines created since the runtime started.",
            GOROUTINES_NOT_IN_GO, "Approximate count of goroutines blocked in a system call (Syscall.blocking). "
                    + "Not guaranteed to add up to /sched/goroutines:goroutines with other goroutine metrics.",
            GOROUTINES_RUNNABLE, "Approximate count of goroutines ready to execute, but not executing. "
                    + "Not guaranteed to add up to /sched/goroutines:goroutines with other goroutine metrics.",
            GOROUTINES_RUNNING, "Approximate count of goroutines executing (mounted on an M). "
                    + "Not guaranteed to add up to /sched/goroutines:goroutines with other goroutine metrics.",
            GOROUTINES_WAITING, "Approximate count of goroutines waiting on a resource (I/O or sync primitives). "
                    + "Not guaranteed to add up to /sched/goroutines:goroutines with other goroutine metrics.",
            GOROUTINES, "Count of live goroutines.",
            LATENCIES, "Distribution of the time goroutines have spent in the scheduler in a runnable state "
                    + "before actually running, one transition in 64 sampled. Bucket counts increase monotonically.",
            THREADS, "The current count of live threads that are owned by the runtime (Ms and sysmon).");

    private final Map<String, Long> values;
    private final Histogram latencies;

    private Metrics(Map<String, Long> values, Histogram latencies) {
        this.values = values;
        this.latencies = latencies;
    }

    /** Go's {@code metrics.All()}: every supported name, in Go's (sorted) order. */
    public static List<String> all() {
        return ALL;
    }

    /**
     * Go's {@code Description.Description} of {@code name}.
     *
     * @throws IllegalArgumentException for a name that is not in {@link #all()}
     */
    public static String description(String name) {
        check(name);
        return DESCRIPTIONS.get(name);
    }

    /**
     * Go's {@code Description.Cumulative}: the value (for a histogram, each bucket count) only
     * grows, so a rate of it means something.
     *
     * @throws IllegalArgumentException for a name that is not in {@link #all()}
     */
    public static boolean cumulative(String name) {
        check(name);
        return name.equals(GOROUTINES_CREATED) || name.equals(LATENCIES);
    }

    /**
     * Whether {@code name} is a histogram (Go's {@code KindFloat64Histogram}) rather than a
     * count (Go's {@code KindUint64}).
     *
     * @throws IllegalArgumentException for a name that is not in {@link #all()}
     */
    public static boolean isHistogram(String name) {
        check(name);
        return name.equals(LATENCIES);
    }

    private static void check(String name) {
        if (!ALL.contains(name)) {
            throw new IllegalArgumentException("no gmp4j metric named '" + name + "'; the metrics are " + ALL);
        }
    }

    /** Reads {@code names} (every metric when empty) from {@code sched}. */
    static Metrics read(Scheduler sched, String... names) {
        List<String> want = names.length == 0 ? ALL : Arrays.asList(names);
        for (String n : want) {
            check(n);
        }
        Map<String, Long> v = new LinkedHashMap<>();
        Histogram h = null;
        long[] states = null;
        boolean statesRead = false;
        for (String n : want) {
            switch (n) {
                case GOMAXPROCS -> v.put(n, (long) sched.gomaxprocs());
                case GOROUTINES_CREATED -> v.put(n, SchedMetrics.created(sched));
                case GOROUTINES -> v.put(n, sched.numGoroutine());
                case THREADS -> v.put(n, SchedMetrics.threads(sched));
                case LATENCIES -> h = Histogram.of(SchedMetrics.latencies(sched), SchedMetrics.latencyBoundaries());
                default -> {
                    if (!statesRead) {
                        states = SchedMetrics.goroutineStates(sched); // one walk for all four
                        statesRead = true;
                    }
                    if (states != null) {
                        v.put(n, states[switch (n) {
                            case GOROUTINES_RUNNING -> SchedMetrics.RUNNING;
                            case GOROUTINES_RUNNABLE -> SchedMetrics.RUNNABLE;
                            case GOROUTINES_WAITING -> SchedMetrics.WAITING;
                            default -> SchedMetrics.NOT_IN_GO;
                        }]);
                    }
                }
            }
        }
        return new Metrics(Collections.unmodifiableMap(v), h);
    }

    /** The names this snapshot holds a value for, in the order they were asked for. */
    public Set<String> names() {
        return latencies == null ? values.keySet() : union();
    }

    private Set<String> union() {
        java.util.LinkedHashSet<String> s = new java.util.LinkedHashSet<>(values.keySet());
        s.add(LATENCIES);
        return Collections.unmodifiableSet(s);
    }

    /** True when this snapshot holds {@code name}: it was asked for and this runtime reports it. */
    public boolean has(String name) {
        return values.containsKey(name) || (latencies != null && name.equals(LATENCIES));
    }

    /**
     * The count named {@code name} (Go's {@code Value.Uint64()}).
     *
     * @throws IllegalArgumentException for an unknown name or the histogram's
     * @throws IllegalStateException when it was not read: not asked for, or a goroutine state
     *     count of a runtime without the goroutine registry
     */
    public long value(String name) {
        if (isHistogram(name)) {
            throw new IllegalArgumentException(name + " is a histogram: read it with histogram(name)");
        }
        Long v = values.get(name);
        if (v == null) {
            throw new IllegalStateException(name + " was not read"
                    + (name.startsWith("/sched/goroutines/") ? " (it needs the goroutine registry, or was not asked for)" : " (not asked for)"));
        }
        return v;
    }

    /**
     * The histogram named {@code name} (Go's {@code Value.Float64Histogram()}).
     *
     * @throws IllegalArgumentException for an unknown name or a count's
     * @throws IllegalStateException when it was not asked for
     */
    public Histogram histogram(String name) {
        if (!isHistogram(name)) {
            throw new IllegalArgumentException(name + " is a count: read it with value(name)");
        }
        if (latencies == null) {
            throw new IllegalStateException(name + " was not read (not asked for)");
        }
        return latencies;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        values.forEach((k, val) -> sb.append(k).append(' ').append(val).append('\n'));
        if (latencies != null) {
            sb.append(LATENCIES).append(' ').append(latencies).append('\n');
        }
        return sb.toString();
    }

    /**
     * Go's {@code metrics.Float64Histogram}: {@code counts[i]} samples fell in
     * {@code [buckets[i], buckets[i+1])}, so {@code buckets} has one element more than
     * {@code counts}; the first boundary is -Inf and the last +Inf, as in Go. Go's layout
     * (runtime/histogram.go): 4 linear sub-buckets per power of two from 2^9 ns to 2^47 ns, under
     * them 4 buckets of 64 ns, over them one overflow bucket. The accessors return copies.
     *
     * @param counts     samples per bucket
     * @param buckets    the boundaries, in seconds
     * @param sumSeconds the sum of the samples, in seconds (Go's histogram has none: for means
     *                   and Micrometer's timers)
     */
    public record Histogram(long[] counts, double[] buckets, double sumSeconds) {
        /** Checks the shape; the arrays are copied. */
        public Histogram {
            if (counts.length + 1 != buckets.length) {
                throw new IllegalArgumentException("a histogram needs one boundary more than counts: "
                        + counts.length + " counts, " + buckets.length + " boundaries");
            }
            counts = counts.clone();
            buckets = buckets.clone();
        }

        static Histogram of(long[] raw, double[] buckets) {
            int n = buckets.length - 1;
            return new Histogram(Arrays.copyOf(raw, n), buckets, raw[n] / 1e9);
        }

        @Override
        public long[] counts() {
            return counts.clone();
        }

        @Override
        public double[] buckets() {
            return buckets.clone();
        }

        /** The number of samples. */
        public long count() {
            long n = 0;
            for (long c : counts) {
                n += c;
            }
            return n;
        }

        /**
         * The lower boundary of the bucket holding the {@code q} quantile, in seconds (0 when
         * there are no samples): an estimate with Go's bucket error, 25% at most.
         *
         * @throws IllegalArgumentException unless 0 &lt;= q &lt;= 1
         */
        public double quantile(double q) {
            if (!(q >= 0 && q <= 1)) {
                throw new IllegalArgumentException("quantile: q must be in [0, 1], got " + q);
            }
            long total = count();
            if (total == 0) {
                return 0;
            }
            long rank = Math.max(1, (long) Math.ceil(q * total));
            long seen = 0;
            for (int i = 0; i < counts.length; i++) {
                seen += counts[i];
                if (seen >= rank) {
                    return Math.max(0, buckets[i]);
                }
            }
            return buckets[counts.length - 1];
        }

        /** Samples and their sum, e.g. {@code count=120 sum=0.0031s p50=2.56e-07s p99=...}. */
        @Override
        public String toString() {
            return "count=" + count() + " sum=" + sumSeconds + "s p50=" + quantile(0.5) + "s p99=" + quantile(0.99) + "s";
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Histogram h && Arrays.equals(counts, h.counts) && Arrays.equals(buckets, h.buckets)
                    && Double.compare(sumSeconds, h.sumSeconds) == 0;
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(counts) * 31 + Arrays.hashCode(buckets);
        }
    }
}
