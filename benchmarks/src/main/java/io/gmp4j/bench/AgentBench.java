package io.gmp4j.bench;

import io.gmp4j.Go;
import io.gmp4j.GoRuntime;
import io.gmp4j.chan.Chan;
import io.gmp4j.runtime.LoopPreempt;
import io.gmp4j.time.Time;
import io.gmp4jbench.AgentWork;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import java.util.jar.Attributes;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;

/**
 * The loop-preemption benchmarks, each at procs 1 in three (or two) child JVMs:
 * <ul>
 *   <li>{@code hog}: one goroutine spins in a counting loop ({@link AgentWork#spin}) for 2 s
 *       while another sleeps 1 ms in a loop; the figures are the sleeper's lateness past its
 *       1 ms, p50, p99 and max, in ms (rows {@code hog-p50}, {@code hog-p99}, {@code hog-max}),
 *       for impls {@code gmp4j} (sysmon hands the spinner's P off, no agent),
 *       {@code gmp4j-agent} (the agent's back-edge checks, handoff off:
 *       {@code -Dgmp4j.preempthandoff=false}) and {@code gmp4j-none} (neither: the sleeper waits
 *       for the spinner to end); and {@code go}, when asked for and Go is installed: the same
 *       workload in benchmarks/go at {@code GOMAXPROCS=1}, preempted by Go's own sysmon
 *       (asynchronous preemption, the preempted goroutine to the global queue).</li>
 *   <li>{@code agent-cost}: fib(32) and two loops over a 1M-int array, each run in a goroutine,
 *       in ms (rows {@code agent-cost-fib}, {@code agent-cost-array-sum},
 *       {@code agent-cost-array-hash}), impls {@code gmp4j}, {@code gmp4j-agent} (both loops
 *       run up to the array's length, so they get no check: see the agent's ArrayLoops) and
 *       {@code gmp4j-agent-checked} (the agent with {@code -Dgmp4j.arrayloops=check}: what a
 *       check in those loops would cost).</li>
 * </ul>
 * The agent jar is the {@code gmp4j-agent} jar on the class path, else
 * {@code -Dgmp4j.bench.agentJar}; a class path with the agent's classes directory gets a
 * manifest-only jar naming its Premain-Class.
 */
final class AgentBench {
    static final List<String> BENCHES = List.of("hog", "agent-cost");
    /** The workloads' package, the agent's argument. */
    static final String PREFIX = "io.gmp4jbench.";
    static final long HOG_NANOS = 2_000_000_000L;
    static final long TICK_NANOS = 1_000_000L;
    static final int FIB_N = 32;
    static final long FIB_EXPECTED = 2_178_309L;
    static final int ARRAY_N = 1 << 20;

    private AgentBench() {
    }

    static boolean handles(String bench) {
        return BENCHES.contains(bench);
    }

    /** The child impls of one benchmark, all gmp4j runtimes. */
    static List<String> variants(String bench) {
        return bench.equals("hog") ? List.of("gmp4j", "gmp4j-agent", "gmp4j-none")
                : List.of("gmp4j", "gmp4j-agent", "gmp4j-agent-checked");
    }

    /** Whether the Go benchmark binary runs {@code bench} too (impl {@code go}). */
    static boolean hasGo(String bench) {
        return bench.equals("hog");
    }

    /** Repetitions when none are asked for: a hog run is 2 s. */
    static String defaultReps(String bench, boolean quick) {
        return bench.equals("hog") ? (quick ? "0+1" : "1+3") : (quick ? "1+3" : "3+5");
    }

    /** The variant's child JVM flags after the gmp4j ones. */
    static List<String> flags(String variant, String classpath) {
        return switch (variant) {
            case "gmp4j" -> List.of();
            case "gmp4j-agent" -> List.of("-javaagent:" + agentJar(classpath) + "=" + PREFIX, "-Dgmp4j.preempthandoff=false");
            case "gmp4j-agent-checked" -> List.of("-javaagent:" + agentJar(classpath) + "=" + PREFIX,
                    "-Dgmp4j.preempthandoff=false", "-Dgmp4j.arrayloops=check");
            case "gmp4j-none" -> List.of("-Dgmp4j.preempthandoff=false");
            default -> throw new IllegalArgumentException("unknown variant '" + variant + "'");
        };
    }

    private static String agentJar(String classpath) {
        String given = System.getProperty("gmp4j.bench.agentJar");
        if (given != null && !given.isBlank()) {
            return given;
        }
        for (String e : classpath.split(File.pathSeparator)) {
            String name = Path.of(e).getFileName().toString();
            if (name.startsWith("gmp4j-agent") && name.endsWith(".jar")) {
                return e;
            }
            if (Files.isRegularFile(Path.of(e, "io", "gmp4j", "agent", "PreemptAgent.class"))) {
                return manifestOnlyJar();
            }
        }
        throw new IllegalStateException("no gmp4j-agent jar on the class path: build the agent module "
                + "or pass -Dgmp4j.bench.agentJar=PATH");
    }

    private static String manifestOnlyJar() {
        try {
            Path j = Files.createTempFile("gmp4j-agent-premain", ".jar");
            j.toFile().deleteOnExit();
            Manifest mf = new Manifest();
            mf.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
            mf.getMainAttributes().putValue("Premain-Class", "io.gmp4j.agent.PreemptAgent");
            try (OutputStream out = Files.newOutputStream(j); JarOutputStream jo = new JarOutputStream(out, mf)) {
                jo.flush();
            }
            return j.toString();
        } catch (IOException e) {
            throw new IllegalStateException("cannot write the agent's manifest jar: " + e, e);
        }
    }

    // =====================================================================================
    // The child side
    // =====================================================================================

    static void runChild(String bench, String impl, int procs, int warmup, int measured) {
        if (procs != 1) {
            throw new IllegalArgumentException(bench + " runs at procs 1 only");
        }
        boolean agent = impl.equals("gmp4j-agent");
        try (GoRuntime rt = GoRuntime.builder().maxProcs(1).name("bench").build()) {
            if (bench.equals("hog")) {
                runHog(rt, impl, warmup, measured);
            } else {
                runCost(rt, impl, warmup, measured);
            }
            System.err.println("loop yields " + LoopPreempt.loopYields() + ", stats " + rt.stats());
        }
        if (agent && LoopPreempt.loopYields() == 0 && bench.equals("hog")) {
            throw new IllegalStateException("gmp4j-agent: no back-edge yield: was the agent loaded?");
        }
    }

    private static void runHog(GoRuntime rt, String impl, int warmup, int measured) {
        List<Double> p50 = new ArrayList<>();
        List<Double> p99 = new ArrayList<>();
        List<Double> max = new ArrayList<>();
        for (Reps rep = Reps.of(warmup, measured); rep.next(); ) {
            double[] late = hogOnce(rt);
            if (rep.measuring()) {
                p50.add(percentile(late, 0.50));
                p99.add(percentile(late, 0.99));
                max.add(late[late.length - 1]);
            }
            System.err.printf("hog %s: %d ticks, lateness p50 %.3f p99 %.3f max %.3f ms%n", impl, late.length,
                    percentile(late, 0.50), percentile(late, 0.99), late[late.length - 1]);
        }
        BenchChild.printResult("hog-p50", impl, 1, p50, "ms");
        BenchChild.printResult("hog-p99", impl, 1, p99, "ms");
        BenchChild.printResult("hog-max", impl, 1, max, "ms");
    }

    /**
     * One 2 s hog run; the sleeper's lateness of every tick, sorted, in ms. The hog starts once
     * the sleeper sleeps; the sleeper stops after its first wake-up past the 2 s (without any
     * preemption that is its only one, 2 s late).
     */
    private static double[] hogOnce(GoRuntime rt) {
        double[][] out = new double[1][];
        rt.main(() -> {
            // The hog's end, set when it starts spinning (0 before): the run is 2 s of spinning
            // however long the start took on a busy host.
            AtomicLong hogEnd = new AtomicLong();
            Chan<Boolean> started = new Chan<>(1);
            Chan<double[]> done = new Chan<>(1);
            Go.go(() -> {
                double[] late = new double[(int) (HOG_NANOS / TICK_NANOS) + 1];
                int n = 0;
                // The first tick counts from before the send: if the sleeper yields its P at the
                // send (a preempt request, fairness), it waits through the spin runnable rather
                // than asleep, and that wait is lateness too.
                long t0 = System.nanoTime();
                started.send(true);
                while (n < late.length) {
                    Time.sleep(Duration.ofNanos(TICK_NANOS));
                    long now = System.nanoTime();
                    late[n++] = (now - t0 - TICK_NANOS) / 1e6;
                    t0 = now;
                    long end = hogEnd.get();
                    if (end != 0 && now - end >= 0) {
                        break;
                    }
                }
                done.send(Arrays.copyOf(late, n));
            });
            started.recv(); // the sleeper sleeps its first 1 ms (or waits runnable): its tick is due while the hog spins
            long end = System.nanoTime() + HOG_NANOS;
            hogEnd.set(end);
            long spins = AgentWork.spin(end);
            if (spins <= 0) {
                throw new IllegalStateException("the hog did not spin");
            }
            out[0] = done.recv();
        });
        double[] late = out[0];
        Arrays.sort(late);
        return late;
    }

    private static double percentile(double[] sorted, double q) {
        int i = (int) Math.ceil(q * sorted.length) - 1;
        return sorted[Math.max(0, Math.min(sorted.length - 1, i))];
    }

    private static void runCost(GoRuntime rt, String impl, int warmup, int measured) {
        int[] a = new int[ARRAY_N];
        for (int i = 0; i < a.length; i++) {
            a[i] = i * 7 + 1;
        }
        long sumExpected = 0;
        long hashExpected = 1;
        for (int x : a) {
            sumExpected += x;
            hashExpected = hashExpected * 31 + x;
        }
        long se = sumExpected;
        long he = hashExpected;
        List<Double> fib = new ArrayList<>();
        List<Double> sum = new ArrayList<>();
        List<Double> hash = new ArrayList<>();
        for (Reps rep = Reps.of(warmup, measured); rep.next(); ) {
            System.gc();
            double[] ms = new double[3];
            rt.main(() -> {
                ms[0] = timed(() -> AgentWork.fib(FIB_N), FIB_EXPECTED, 1, "fib");
                ms[1] = timed(() -> AgentWork.arraySum(a), se, 50, "array-sum");
                ms[2] = timed(() -> AgentWork.arrayHash(a), he, 10, "array-hash");
            });
            if (rep.measuring()) {
                fib.add(ms[0]);
                sum.add(ms[1]);
                hash.add(ms[2]);
            }
        }
        BenchChild.printResult("agent-cost-fib", impl, 1, fib, "ms");
        BenchChild.printResult("agent-cost-array-sum", impl, 1, sum, "ms");
        BenchChild.printResult("agent-cost-array-hash", impl, 1, hash, "ms");
    }

    /** {@code times} calls of {@code body}, each result checked, in ms. */
    private static double timed(java.util.function.LongSupplier body, long expected, int times, String what) {
        long t0 = System.nanoTime();
        for (int i = 0; i < times; i++) {
            long r = body.getAsLong();
            if (r != expected) {
                throw new IllegalStateException(what + " computed " + r + ", expected " + expected);
            }
        }
        return (System.nanoTime() - t0) / 1e6;
    }
}
