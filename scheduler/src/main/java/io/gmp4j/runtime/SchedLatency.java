package io.gmp4j.runtime;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Go's {@code sched.timeToRun}, the histogram behind {@code /sched/latencies:seconds}: how long
 * goroutines stayed runnable before they ran, with Go's layout ({@code runtime/histogram.go}:
 * {@code timeHistMinBucketBits = 9}, {@code timeHistMaxBucketBits = 48},
 * {@code timeHistSubBucketBits = 2}), so 160 counts plus an underflow and an overflow count.
 *
 * <p><b>Sampling.</b> Go tracks one transition out of running in {@code gTrackingPeriod} (8)
 * per goroutine ({@code casgstatus}), because a clock read per transition is too dear. This
 * samples one in {@value #PERIOD}: a goroutine decides, each time it parks or yields, whether
 * this wait is sampled (every 64th of its own, counted in {@link G#trackingSeq}), and one new
 * goroutine in 64 (by id) is sampled from its start. Only a sampled wait pays two
 * {@code System.nanoTime()} calls (one by its waker, one when it runs) and a histogram update; the others pay a field load and a branch. A period of 8
 * costs the ping-pong round trip a measurable share, 64 nothing measurable (the figures are in
 * benchmarks/PERFORMANCE-LOG.md). So the counts are about one 64th of all the
 * transitions (Go's, one 8th); the distribution is that of all of them.
 *
 * <p><b>What is measured.</b> From the moment a goroutine becomes runnable (its {@code ready}
 * by a waker, its start, its yield at a safe point, {@code gosched} or a syscall exit without
 * a P) to the moment it runs again. A goroutine woken by a JDK unpark its runtime does not see
 * (a JDK lock, {@code LockSupport}) is not sampled.
 *
 * <p><b>Where the counts live.</b> One array per M, written only by the goroutine running on
 * that M (with opaque stores: a plain move on x86, never torn), summed by readers with opaque
 * loads: no shared write per sample. Ms never leave {@code allmSnapshot}, so a sum never loses
 * an M's counts.
 */
final class SchedLatency {
    static final int MIN_BUCKET_BITS = 9;
    /** Exclusive: durations of 2^47 ns and more go to the overflow count. */
    static final int MAX_BUCKET_BITS = 48;
    static final int SUB_BUCKET_BITS = 2;
    static final int SUB_BUCKETS = 1 << SUB_BUCKET_BITS;
    static final int BUCKETS = MAX_BUCKET_BITS - MIN_BUCKET_BITS + 1;
    /** The counts: index 0 underflow, 1..160 Go's counts, 161 overflow. */
    static final int TOTAL = BUCKETS * SUB_BUCKETS + 2;
    /** One transition in PERIOD is sampled (Go's gTrackingPeriod is 8: see the class comment). */
    static final int PERIOD = 64;
    static final int TRACKING_MASK = PERIOD - 1;

    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(long[].class);

    private SchedLatency() {
    }

    /** The per-M histogram: {@link #TOTAL} counts and the sum of the sampled nanoseconds. */
    static final class Counts {
        final long[] counts = new long[TOTAL + 1]; // the last slot: the sum in nanoseconds

        /** Records one sample. Only the thread of the M that owns this calls it. */
        void record(long nanos) {
            long[] c = counts;
            int i = index(nanos);
            SLOT.setOpaque(c, i, (long) SLOT.getOpaque(c, i) + 1);
            if (nanos > 0) {
                SLOT.setOpaque(c, TOTAL, (long) SLOT.getOpaque(c, TOTAL) + nanos);
            }
        }

        /** Adds this M's counts (and sum, in the last slot) into {@code into}. Any thread. */
        void addTo(long[] into) {
            long[] c = counts;
            for (int i = 0; i <= TOTAL; i++) {
                into[i] += (long) SLOT.getOpaque(c, i);
            }
        }
    }

    /** Go's timeHistogram.record: the slot of {@code nanos} among the {@link #TOTAL} counts. */
    static int index(long nanos) {
        if (nanos < 0) {
            return 0;
        }
        int len = 64 - Long.numberOfLeadingZeros(nanos);
        int bucketBit;
        int bucket;
        if (len < MIN_BUCKET_BITS) {
            bucketBit = MIN_BUCKET_BITS;
            bucket = 0;
        } else {
            bucketBit = len;
            bucket = bucketBit - MIN_BUCKET_BITS + 1;
        }
        if (bucket >= BUCKETS) {
            return TOTAL - 1;
        }
        int sub = (int) ((nanos >>> (bucketBit - 1 - SUB_BUCKET_BITS)) % SUB_BUCKETS);
        return 1 + bucket * SUB_BUCKETS + sub;
    }

    /**
     * Go's timeHistogramMetricsBuckets: the {@link #TOTAL} + 1 bucket boundaries in seconds,
     * from -Inf to +Inf; count i covers [b[i], b[i+1]).
     */
    static double[] boundaries() {
        double[] b = new double[TOTAL + 1];
        b[0] = Double.NEGATIVE_INFINITY;
        for (int j = 0; j < SUB_BUCKETS; j++) {
            long ns = (long) j << (MIN_BUCKET_BITS - 1 - SUB_BUCKET_BITS);
            b[j + 1] = ns / 1e9;
        }
        for (int i = MIN_BUCKET_BITS; i < MAX_BUCKET_BITS; i++) {
            for (int j = 0; j < SUB_BUCKETS; j++) {
                long ns = 1L << (i - 1) | (long) j << (i - 1 - SUB_BUCKET_BITS);
                b[(i - MIN_BUCKET_BITS + 1) * SUB_BUCKETS + j + 1] = ns / 1e9;
            }
        }
        b[TOTAL - 1] = (1L << (MAX_BUCKET_BITS - 1)) / 1e9;
        b[TOTAL] = Double.POSITIVE_INFINITY;
        return b;
    }

    // =====================================================================================
    // The hooks (one call each in G, Scheduler and Syscalls)
    // =====================================================================================

    /**
     * {@code g} is about to park (its own thread, before it publishes WAITING): decides whether
     * this wait is sampled. The waker reads {@link G#tracking} after it read WAITING, which this
     * store precedes, so it sees this wait's decision.
     */
    static void parking(G g) {
        boolean track = (++g.trackingSeq & TRACKING_MASK) == 0;
        g.tracking = track;
        if (track) {
            g.runnableSince = 0; // no stamp from a waker of an earlier wait may stand for this one
        }
    }

    /**
     * A waker found {@code g} WAITING and is about to ready it: stamps a sampled wait. The stamp
     * precedes the CAS that readies {@code g}, so {@code g} sees it once it sees the readiness.
     */
    static void readying(G g) {
        if (g.tracking) {
            g.runnableSince = System.nanoTime();
        }
    }

    /** {@code g} runs again after a wait that parked (its own thread): records a sampled wait. */
    static void resumed(G g) {
        if (g.tracking) {
            g.tracking = false;
            long since = g.runnableSince;
            if (since != 0) {
                g.runnableSince = 0;
                record(g, System.nanoTime() - since);
            }
        }
    }

    /** {@code g} was created and is about to start: one goroutine in {@value #PERIOD} is sampled from here. */
    static void created(G g) {
        if ((g.goid & TRACKING_MASK) == 0) {
            g.runnableSince = System.nanoTime();
        }
    }

    /** {@code g} runs for the first time (its own thread). */
    static void started(G g) {
        long since = g.runnableSince;
        if (since != 0) {
            g.runnableSince = 0;
            record(g, System.nanoTime() - since);
        }
    }

    /**
     * {@code Thread.yield()} for a goroutine that goes back to a run queue (a safe point,
     * {@code gosched}, a syscall exit without a P): the time until it runs again is a sample,
     * for one transition in {@value #PERIOD}.
     */
    static void yield() {
        G g = Carrier.gOf(Thread.currentThread());
        if (g == null || (++g.trackingSeq & TRACKING_MASK) != 0) {
            Thread.yield();
            return;
        }
        long t0 = System.nanoTime();
        Thread.yield();
        record(g, System.nanoTime() - t0);
    }

    private static void record(G g, long nanos) {
        M m = Carrier.currentM();
        if (m != null && m.sched == g.sched) {
            m.latency.record(nanos);
        }
    }

    /** The runtime's histogram now: the {@link #TOTAL} counts, then the sum in nanoseconds. */
    static long[] read(Scheduler s) {
        long[] sum = new long[TOTAL + 1];
        for (M m : s.allmSnapshot) {
            m.latency.addTo(sum);
        }
        return sum;
    }
}
