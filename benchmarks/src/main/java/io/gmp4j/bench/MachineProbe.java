package io.gmp4j.bench;

import io.gmp4j.runtime.CpuAffinity;

import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Two figures about the machine itself, taken by {@code ./gmp4j bench} before and after its runs
 * so that a result can be read against the state the machine was in:
 * <ul>
 *   <li>{@code c2cNs}: the round trip of one cache line between two CPUs, two platform threads
 *       pinned to the first two CPUs of the process (unpinned where pinning is unavailable)
 *       handing a counter back and forth. Every hand-off between carriers on different cores
 *       pays it: a wake-up, a steal, a channel shared across Ps.</li>
 *   <li>{@code stepNs}: one step of a chain of dependent multiply-xorshift steps on one thread,
 *       the speed of one core with nothing shared.</li>
 * </ul>
 * On the 2-vCPU development VM the first moved between about 100 and 480 ns from one minute to
 * the next (the host places the two vCPUs near or far from each other) while the second stayed
 * put; results at procs 2 moved with it (the README's performance section).
 */
public final class MachineProbe {

    /** The two figures; {@code pinned} says whether the round trip ran on two pinned CPUs. */
    public record Reading(double c2cNs, double stepNs, boolean pinned) {
        /** One line for people: "core-to-core round trip 106 ns, one dependent step 1.62 ns". */
        public String describe() {
            String c2c = Double.isNaN(c2cNs) ? "no core-to-core round trip (one CPU)"
                    : String.format(Locale.ROOT, "core-to-core round trip %.0f ns%s", c2cNs, pinned ? "" : " (threads unpinned)");
            return String.format(Locale.ROOT, "%s, one dependent step %.2f ns", c2c, stepNs);
        }
    }

    /**
     * Round trips per timed batch; batches run until {@link #MEASURE_NS} has passed. Small, so
     * that on a loaded machine, where each round trip may wait for a time slice, the probe
     * still ends within about a second.
     */
    private static final int BATCH = 100;
    private static final long WARMUP_NS = 50_000_000L;
    private static final long MEASURE_NS = 250_000_000L;

    /** The line that travels: odd values from the pinger, even ones from the ponger. */
    private final AtomicLong turn = new AtomicLong();
    private volatile boolean stop;

    private MachineProbe() {
    }

    /**
     * Takes both readings (about 0.55 s). With one CPU there is no round trip to time (the two
     * threads would take turns by time slice): {@code c2cNs} is then NaN.
     */
    public static Reading read() {
        int[] cpus = pinnableCpus();
        double c2c = Runtime.getRuntime().availableProcessors() >= 2 ? new MachineProbe().roundTrip(cpus) : Double.NaN;
        return new Reading(c2c, step(), cpus != null);
    }

    /** The first two CPUs of the process, or null when pinning is unavailable or there is one. */
    private static int[] pinnableCpus() {
        try {
            int[] cpus = CpuAffinity.load().processCpus();
            return cpus.length >= 2 ? new int[] {cpus[0], cpus[1]} : null;
        } catch (RuntimeException e) {
            return null; // not Linux, or no native access: unpinned threads still give a figure
        }
    }

    /**
     * The ponger answers odd values with the next even one; the pinger writes odd values and
     * waits for the answer. Release stores and acquire loads: each hand-off moves the line once
     * each way, which is what a round trip should cost; no fence of our own adds to it.
     */
    private double roundTrip(int[] cpus) {
        CountDownLatch ready = new CountDownLatch(1);
        Thread.ofPlatform().daemon().name("probe-pong").start(() -> {
            pin(cpus, 1);
            ready.countDown();
            long v = 1;
            while (!stop) {
                if (turn.getAcquire() == v) {
                    turn.setRelease(v + 1);
                    v += 2;
                } else {
                    Thread.onSpinWait();
                }
            }
        });
        int[] saved = cpus != null ? CpuAffinity.load().allowedCpus() : null;
        try {
            pin(cpus, 0);
            ready.await();
            long v = 0;
            long start = System.nanoTime();
            long measuredFrom = 0;
            long trips = 0;
            while (true) {
                for (int i = 0; i < BATCH; i++) {
                    turn.setRelease(v + 1);
                    while (turn.getAcquire() != v + 2) {
                        Thread.onSpinWait();
                    }
                    v += 2;
                }
                long now = System.nanoTime();
                if (measuredFrom == 0) {
                    if (now - start >= WARMUP_NS) {
                        measuredFrom = now;
                    }
                } else {
                    trips += BATCH;
                    if (now - measuredFrom >= MEASURE_NS) {
                        return (now - measuredFrom) / (double) trips;
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("machine probe interrupted", e);
        } finally {
            stop = true;
            if (saved != null) {
                CpuAffinity.load().pinCurrentThread(saved);
            }
        }
    }

    private static void pin(int[] cpus, int which) {
        if (cpus != null) {
            CpuAffinity.load().pinCurrentThread(cpus[which]);
        }
    }

    /**
     * ns per step of a chain of 100,000 dependent multiply-xorshift steps: the best of 50 runs
     * after 100 ms of warm-up. Each step needs the one before it, so no compiler can vectorise or
     * fold the chain, and its time is the core's multiply latency. (A recursive fib read 17 or
     * 24 us in different JVMs on the same machine, as C2 inlined the recursion differently.)
     */
    private static double step() {
        long x = System.nanoTime() | 1;
        long warmUntil = System.nanoTime() + 100_000_000L;
        while (System.nanoTime() - warmUntil < 0) {
            x = chain(x);
        }
        double best = Double.MAX_VALUE;
        for (int run = 0; run < 50; run++) {
            long t0 = System.nanoTime();
            x = chain(x);
            best = Math.min(best, System.nanoTime() - t0);
        }
        if (x == 0) {
            System.err.print(""); // x is used, so the chain is not dead code
        }
        return best / CHAIN;
    }

    private static final int CHAIN = 100_000;

    private static long chain(long x) {
        for (int i = 0; i < CHAIN; i++) {
            x = (x * 0x9E3779B97F4A7C15L) ^ (x >>> 29);
        }
        return x;
    }

    /**
     * Whether two readings differ enough to say the machine changed between them: the round trip
     * or the core's time by 1.5x or more either way (within one phase of the development VM the
     * round trip stayed within 1.2x; between phases it moved 4-8x).
     */
    public static boolean changed(Reading a, Reading b) {
        return apart(a.c2cNs(), b.c2cNs()) || apart(a.stepNs(), b.stepNs());
    }

    private static boolean apart(double x, double y) {
        if (Double.isNaN(x) || Double.isNaN(y)) {
            return false;
        }
        return Math.max(x, y) >= 1.5 * Math.min(x, y);
    }

    /** Prints a reading: {@code java -cp ... io.gmp4j.bench.MachineProbe}. */
    public static void main(String[] args) {
        System.out.println(read().describe());
    }
}
