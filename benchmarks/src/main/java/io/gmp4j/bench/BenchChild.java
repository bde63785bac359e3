package io.gmp4j.bench;

import io.gmp4j.runtime.Scheduler;
import io.gmp4j.GoRuntime;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.LongSupplier;

/**
 * One benchmark, one implementation, one GOMAXPROCS, in its own JVM (forked by
 * {@link BenchMain}): {@code BenchChild <bench> <impl> <procs> <reps>} where reps is
 * {@code W+M} (W warm-up, M measured repetitions) or just {@code M} (3 warm-up). Prints one
 * result line per figure on stdout:
 * <pre>@result bench=skynet impl=gmp4j procs=1 value=123.456 unit=ms samples=120.1,123.4,130.2</pre>
 * (value = median of the measured samples). Diagnostics go to stderr. Exits 1 on any failure,
 * including a wrong computed result, and 3 when the watchdog fires
 * ({@code -Dgmp4j.bench.timeout}, seconds, default 600).
 */
public final class BenchChild {
    static final String RESULT_PREFIX = "@result ";

    /** The gmp4j runtimes of this child, for the watchdog's report. */
    private static final List<GoRuntime> RUNTIMES = new CopyOnWriteArrayList<>();

    private BenchChild() {
    }

    public static void main(String[] args) {
        if (args.length != 4) {
            System.err.println("usage: BenchChild <bench> <impl> <procs> <warmup+measured>");
            System.exit(2);
        }
        try {
            String bench = args[0];
            String impl = args[1];
            int procs = Integer.parseInt(args[2]);
            int[] reps = parseReps(args[3]);
            startWatchdog(String.join(" ", args), Long.getLong("gmp4j.bench.timeout", 600));
            switch (bench) {
                case "spawn", "skynet", "fib" -> runMacro(bench, impl, procs, reps[0], reps[1]);
                case "fib-paired" -> runFibPaired(impl, procs, reps[0], reps[1]);
                case "hog", "agent-cost" -> AgentBench.runChild(bench, impl, procs, reps[0], reps[1]);
                case "floor" -> runFloor(impl, procs, reps[0], reps[1]);
                case "pingpong", "buffered-1p1c", "buffered-4p4c", "select", "sieve", "threadring" ->
                        runChan(bench, impl, procs, reps[0], reps[1]);
                case String b when SAVINA.contains(b) -> runSavina(bench, impl, procs, reps[0], reps[1]);
                default -> throw new IllegalArgumentException("unknown benchmark '" + bench + "'");
            }
        } catch (Throwable t) {
            System.err.println("BenchChild " + String.join(" ", args) + " FAILED: " + t);
            t.printStackTrace();
            System.err.flush();
            System.exit(1);
        }
        System.exit(0);
    }

    /**
     * Parses repetitions: {@code "3+5"} is {3, 5} (3 warm-up, 5 measured), {@code "5"} is {3, 5}.
     *
     * @throws IllegalArgumentException for negative warm-ups or fewer than one measured
     */
    public static int[] parseReps(String s) {
        int plus = s.indexOf('+');
        int[] r = plus < 0 ? new int[]{3, Integer.parseInt(s)}
                : new int[]{Integer.parseInt(s.substring(0, plus)), Integer.parseInt(s.substring(plus + 1))};
        if (r[0] < 0 || r[1] < 1) {
            throw new IllegalArgumentException("bad reps '" + s + "': need warmup >= 0, measured >= 1");
        }
        return r;
    }

    /** The body of a whole-program benchmark, returning its verified result. */
    static long body(String bench, Spawner s) {
        return switch (bench) {
            case "spawn" -> Bodies.spawn(s, Bodies.SPAWN_N);
            case "skynet" -> Bodies.skynet(s, Bodies.SKYNET_SIZE, Bodies.SKYNET_DIV);
            case "fib" -> Bodies.fib(s, Bodies.FIB_N, Bodies.FIB_SPAWN_DEPTH);
            default -> throw new IllegalArgumentException(bench);
        };
    }

    static long expected(String bench) {
        return switch (bench) {
            case "spawn" -> Bodies.SPAWN_N;
            case "skynet" -> Bodies.SKYNET_EXPECTED;
            case "fib" -> Bodies.FIB_EXPECTED;
            default -> throw new IllegalArgumentException(bench);
        };
    }

    private static void runMacro(String bench, String impl, int procs, int warmup, int measured) {
        if (impl.equals("direct")) {
            runParallelFloor(bench, procs, warmup, measured);
            return;
        }
        try (BenchContext ctx = BenchContext.of(impl, procs)) {
            if (ctx instanceof BenchContext.Gmp4j g) {
                RUNTIMES.add(g.rt());
            }
            List<Double> samples = new ArrayList<>();
            for (Reps rep = Reps.of(warmup, measured); rep.next(); ) {
                System.gc();
                long[] out = new long[2];
                ctx.run(() -> {
                    long t0 = System.nanoTime();
                    long r = body(bench, ctx.spawner());
                    out[0] = System.nanoTime() - t0;
                    out[1] = r;
                });
                Bodies.verify(bench, out[1], expected(bench));
                if (rep.measuring()) {
                    samples.add(out[0] / 1e6);
                }
            }
            String st = ctx.stats();
            if (!st.isEmpty()) {
                System.err.println("stats after the last rep: " + st);
            }
            printResult(bench, impl, procs, samples, "ms");
        }
    }

    /** {@code fib} on platform threads sharing a leaf counter: the machine's speed-up ceiling. */
    private static void runParallelFloor(String bench, int procs, int warmup, int measured) {
        if (!bench.equals("fib")) {
            throw new IllegalArgumentException("impl direct has no " + bench + " (fib only)");
        }
        try (ParallelFloor f = new ParallelFloor(procs, Bodies.FIB_N, Bodies.FIB_SPAWN_DEPTH)) {
            printResult(bench, "direct", procs, timedReps(bench, expected(bench), warmup, measured, () -> parallelFib(f)), "ms");
        }
    }

    /**
     * {@code fib-paired}: fib at procs 1 and at procs {@code procs} in this one process, the two
     * alternating run by run (1, N, then N, 1, ...), so that both see the machine in the same
     * state. On the development VM one core's speed moves up to 1.6x between minutes (impl
     * {@code direct}'s single thread ran fib in 6.4 or 10-11 ms by phase), so procs-1 and
     * procs-N figures from forks minutes apart can make the speed-up anything from 1.3 to 2.6.
     * Prints the two results (ms) and, on stderr, the median of the per-pair speed-ups. Impl
     * {@code gmp4j}: two runtimes, {@code maxProcs(1)} and {@code maxProcs(procs)}; {@code direct}:
     * two {@link ParallelFloor}s.
     */
    private static void runFibPaired(String impl, int procs, int warmup, int measured) {
        if (procs < 2) {
            throw new IllegalArgumentException("fib-paired compares procs 1 with procs N >= 2, got N = " + procs);
        }
        List<AutoCloseable> open = new ArrayList<>();
        try {
            LongSupplier one;
            LongSupplier many;
            switch (impl) {
                case "gmp4j" -> {
                    GoRuntime r1 = GoRuntime.builder().maxProcs(1).name("bench-p1").build();
                    open.add(r1);
                    GoRuntime rn = GoRuntime.builder().maxProcs(procs).name("bench-p" + procs).build();
                    open.add(rn);
                    RUNTIMES.add(r1);
                    RUNTIMES.add(rn);
                    one = () -> fibOn(r1);
                    many = () -> fibOn(rn);
                }
                case "direct" -> {
                    ParallelFloor f1 = new ParallelFloor(1, Bodies.FIB_N, Bodies.FIB_SPAWN_DEPTH);
                    open.add(f1);
                    ParallelFloor fn = new ParallelFloor(procs, Bodies.FIB_N, Bodies.FIB_SPAWN_DEPTH);
                    open.add(fn);
                    one = () -> parallelFib(f1);
                    many = () -> parallelFib(fn);
                }
                default -> throw new IllegalArgumentException("fib-paired runs gmp4j and direct only, not " + impl);
            }
            List<Double> t1 = new ArrayList<>();
            List<Double> tn = new ArrayList<>();
            List<Double> speedups = new ArrayList<>();
            for (Reps rep = Reps.of(warmup, measured); rep.next(); ) {
                boolean oneFirst = rep.count() % 2 == 1;
                double a = timedRun("fib-paired", Bodies.FIB_EXPECTED, oneFirst ? one : many);
                double b = timedRun("fib-paired", Bodies.FIB_EXPECTED, oneFirst ? many : one);
                if (rep.measuring()) {
                    double ms1 = oneFirst ? a : b;
                    double msN = oneFirst ? b : a;
                    t1.add(ms1);
                    tn.add(msN);
                    speedups.add(ms1 / msN);
                }
            }
            printResult("fib-paired", impl, 1, t1, "ms");
            printResult("fib-paired", impl, procs, tn, "ms");
            System.err.println("fib-paired " + impl + ": speed-up from procs 1 to " + procs
                    + ", median of " + speedups.size() + " paired runs: " + fmt(median(speedups)) + "x");
        } finally {
            for (int i = open.size() - 1; i >= 0; i--) {
                try {
                    open.get(i).close();
                } catch (Exception e) {
                    System.err.println("fib-paired: closing " + open.get(i) + " failed: " + e);
                }
            }
        }
    }

    private static long fibOn(GoRuntime rt) {
        long[] out = new long[1];
        rt.main(() -> out[0] = body("fib", Spawner.GMP4J));
        return out[0];
    }

    /** One run of {@code f}: the sum of fib's leaves. */
    private static long parallelFib(ParallelFloor f) {
        try {
            return f.run();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    /**
     * Runs {@code body} on this thread by the repetition plan, a full GC before each run, and
     * checks each result against {@code expected}; returns the measured runs' times in ms.
     */
    private static List<Double> timedReps(String bench, long expected, int warmup, int measured, LongSupplier body) {
        List<Double> samples = new ArrayList<>();
        for (Reps rep = Reps.of(warmup, measured); rep.next(); ) {
            double ms = timedRun(bench, expected, body);
            if (rep.measuring()) {
                samples.add(ms);
            }
        }
        return samples;
    }

    /** One run of {@code body} after a full GC, its result checked against {@code expected}; in ms. */
    private static double timedRun(String bench, long expected, LongSupplier body) {
        System.gc();
        long t0 = System.nanoTime();
        long r = body.getAsLong();
        long ns = System.nanoTime() - t0;
        Bodies.verify(bench, r, expected);
        return ns / 1e6;
    }

    /** Operations one run of a channel benchmark performs: its figure is ns per operation. */
    static long chanOps(String bench) {
        return switch (bench) {
            case "pingpong" -> ChanBodies.PINGPONG_N;
            case "buffered-1p1c", "buffered-4p4c" -> ChanBodies.BUFFERED_N;
            case "select" -> ChanBodies.SELECT_N;
            case "sieve" -> 1; // the whole program, in ms
            case "threadring" -> ringHops();
            default -> throw new IllegalArgumentException(bench);
        };
    }

    /** threadring's hops: 10,000,000, or 1,000,000 under --quick ({@code -Dgmp4j.bench.quick=true}). */
    static int ringHops() {
        return Boolean.getBoolean("gmp4j.bench.quick") ? ChanBodies.RING_HOPS_QUICK : ChanBodies.RING_HOPS;
    }

    /** A channel benchmark body at full size, returning its result for {@link #chanExpected}. */
    static long chanBody(String bench, BenchChan.Impl impl) {
        return switch (bench) {
            case "pingpong" -> ChanBodies.pingpong(impl, ChanBodies.PINGPONG_N);
            case "buffered-1p1c" -> ChanBodies.buffered(impl, 1, 1, ChanBodies.BUFFERED_N, ChanBodies.BUFFERED_CAP);
            case "buffered-4p4c" -> ChanBodies.buffered(impl, 4, 4, ChanBodies.BUFFERED_N, ChanBodies.BUFFERED_CAP);
            case "select" -> ChanBodies.select(impl, ChanBodies.SELECT_N);
            case "sieve" -> ChanBodies.sieve(impl, ChanBodies.SIEVE_PRIMES, ChanBodies.SIEVE_LAST);
            case "threadring" -> ChanBodies.threadring(impl, ChanBodies.RING_SIZE, ringHops());
            default -> throw new IllegalArgumentException(bench);
        };
    }

    static long chanExpected(String bench) {
        return switch (bench) {
            case "pingpong" -> ChanBodies.PINGPONG_N;
            case "buffered-1p1c", "buffered-4p4c" -> ChanBodies.bufferedExpected(ChanBodies.BUFFERED_N);
            case "select" -> ChanBodies.selectExpected(ChanBodies.SELECT_N);
            case "sieve" -> ChanBodies.sieveExpected(ChanBodies.SIEVE_PRIMES);
            case "threadring" -> ChanBodies.threadringExpected(ChanBodies.RING_SIZE, ringHops());
            default -> throw new IllegalArgumentException(bench);
        };
    }

    /**
     * A channel benchmark: ns per operation (sieve: ms per run). pingpong also reports
     * {@code pingpong-cpu}, the process CPU time per round trip (all threads: spinning shows).
     */
    private static void runChan(String bench, String impl, int procs, int warmup, int measured) {
        BenchChan.Impl chans = BenchChan.impl(impl);
        long ops = chanOps(bench);
        boolean ms = bench.equals("sieve");
        long expected = chanExpected(bench);
        com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean();
        try (BenchContext ctx = BenchContext.of(impl, procs)) {
            if (ctx instanceof BenchContext.Gmp4j g) {
                RUNTIMES.add(g.rt());
            }
            List<Double> wall = new ArrayList<>();
            List<Double> cpu = new ArrayList<>();
            for (Reps rep = Reps.of(warmup, measured); rep.next(); ) {
                System.gc();
                long[] out = new long[3];
                ctx.run(() -> {
                    long c0 = os.getProcessCpuTime();
                    long t0 = System.nanoTime();
                    long r = chanBody(bench, chans);
                    out[0] = System.nanoTime() - t0;
                    out[1] = os.getProcessCpuTime() - c0;
                    out[2] = r;
                });
                Bodies.verify(bench, out[2], expected);
                if (rep.measuring()) {
                    wall.add(ms ? out[0] / 1e6 : out[0] / (double) ops);
                    cpu.add(out[1] / (double) ops);
                }
            }
            String st = ctx.stats();
            if (!st.isEmpty()) {
                System.err.println("stats after the last rep: " + st);
            }
            printResult(bench, impl, procs, wall, ms ? "ms" : "ns/op");
            if (bench.equals("pingpong")) {
                printResult("pingpong-cpu", impl, procs, cpu, "ns/op");
            }
        }
    }

    /** The Savina actor benchmarks ({@link SavinaBodies}): gmp4j, pekko and jdk, in ms per run. */
    static final List<String> SAVINA = List.of("savina-pingpong", "savina-counting", "savina-threadring",
            "savina-fj-throughput", "savina-fj-creation", "savina-big", "savina-chameneos");

    /** A Savina benchmark at Savina's default sizes, returning its result for {@link #savinaExpected}. */
    static long savinaBody(String bench, SavinaActors a) {
        return switch (bench) {
            case "savina-pingpong" -> SavinaBodies.pingpong(a, SavinaBodies.PINGPONG_N);
            case "savina-counting" -> SavinaBodies.counting(a, SavinaBodies.COUNTING_N);
            case "savina-threadring" -> SavinaBodies.threadring(a, SavinaBodies.RING_ACTORS, SavinaBodies.RING_HOPS);
            case "savina-fj-throughput" -> SavinaBodies.fjThroughput(a, SavinaBodies.FJT_ACTORS, SavinaBodies.FJT_MESSAGES);
            case "savina-fj-creation" -> SavinaBodies.fjCreation(a, SavinaBodies.FJC_ACTORS);
            case "savina-big" -> SavinaBodies.big(a, SavinaBodies.BIG_ACTORS, SavinaBodies.BIG_PINGS);
            case "savina-chameneos" -> SavinaBodies.chameneos(a, SavinaBodies.CHAMENEOS, SavinaBodies.CHAMENEOS_MEETINGS);
            default -> throw new IllegalArgumentException(bench);
        };
    }

    static long savinaExpected(String bench) {
        return switch (bench) {
            case "savina-pingpong" -> SavinaBodies.PINGPONG_N;
            case "savina-counting" -> SavinaBodies.COUNTING_N;
            case "savina-threadring" -> SavinaBodies.threadringExpected(SavinaBodies.RING_ACTORS, SavinaBodies.RING_HOPS);
            case "savina-fj-throughput" -> (long) SavinaBodies.FJT_ACTORS * SavinaBodies.FJT_MESSAGES;
            case "savina-fj-creation" -> SavinaBodies.FJC_ACTORS;
            case "savina-big" -> (long) SavinaBodies.BIG_ACTORS * SavinaBodies.BIG_PINGS;
            case "savina-chameneos" -> 2L * SavinaBodies.CHAMENEOS_MEETINGS;
            default -> throw new IllegalArgumentException(bench);
        };
    }

    /**
     * A Savina benchmark: ms per run. The body runs on this (platform) thread, which sends the
     * first messages and waits for the actors' answer; the actor system lives for all the reps.
     */
    private static void runSavina(String bench, String impl, int procs, int warmup, int measured) {
        long expected = savinaExpected(bench);
        try (SavinaActors a = SavinaActors.of(impl, procs)) {
            if (a instanceof SavinaActors.Gmp4j g) {
                RUNTIMES.add(g.runtime());
            }
            List<Double> samples = timedReps(bench, expected, warmup, measured, () -> savinaBody(bench, a));
            String st = a.stats();
            if (!st.isEmpty()) {
                System.err.println("stats after the last rep: " + st);
            }
            printResult(bench, impl, procs, samples, "ms");
        }
    }

    private static final int SWITCH_ROUNDS = 1_000_000;
    private static final int EXECUTE_N = 2_000_000;
    private static final int EXECUTE_BATCH = 128;

    private static void runFloor(String impl, int procs, int warmup, int measured) {
        switch (impl) {
            case "jdk" -> {
                BenchContext ctx = BenchContext.of("jdk", procs);
                printResult("floor-switch", impl, procs, perOp(measure(ctx, warmup, measured,
                        () -> Floor.switchLockSupport(Thread::startVirtualThread, SWITCH_ROUNDS)), 2.0 * SWITCH_ROUNDS),
                        "ns/op");
                printResult("floor-spawn", impl, procs, perOp(measure(ctx, warmup, measured,
                        () -> Floor.spawn(Spawner.JDK)), Bodies.SPAWN_N), "ns/op");
            }
            case "direct" -> {
                // The custom-scheduler hook with nothing behind it: one carrier, one queue.
                try (BenchContext.Direct ctx = new BenchContext.Direct(new DirectScheduler())) {
                    DirectScheduler d = ctx.sched();
                    printResult("floor-switch", impl, procs, perOp(measure(ctx, warmup, measured,
                            () -> Floor.switchLockSupport(d::start, SWITCH_ROUNDS)), 2.0 * SWITCH_ROUNDS), "ns/op");
                    printResult("floor-spawn", impl, procs, perOp(measure(ctx, warmup, measured,
                            () -> Floor.spawn(ctx.spawner())), Bodies.SPAWN_N), "ns/op");
                    printResult("floor-skynet", impl, procs, perOp(measure(ctx, warmup, measured,
                            () -> Floor.skynet(ctx.spawner())), 1e6), "ms");
                }
            }
            case "gmp4j" -> {
                // Registry on for the switch and execute figures: G.current() needs it.
                try (GoRuntime on = GoRuntime.builder().maxProcs(procs).goroutineRegistry(true).name("reg-on").build();
                     GoRuntime off = GoRuntime.builder().maxProcs(procs).goroutineRegistry(false).name("reg-off")
                             .build()) {
                    RUNTIMES.add(on);
                    RUNTIMES.add(off);
                    BenchContext ctxOn = new BenchContext.Gmp4j(on);
                    BenchContext ctxOff = new BenchContext.Gmp4j(off);
                    printResult("floor-switch", impl, procs, perOp(measure(ctxOn, warmup, measured,
                            () -> Floor.switchGPark(Scheduler.of(on), SWITCH_ROUNDS)), 2.0 * SWITCH_ROUNDS), "ns/op");
                    printResult("floor-switch-locksupport", impl, procs, perOp(measure(ctxOn, warmup, measured,
                            () -> Floor.switchLockSupport(r -> Scheduler.of(on).go(r).thread(), SWITCH_ROUNDS)),
                            2.0 * SWITCH_ROUNDS), "ns/op");
                    printResult("floor-execute", impl, procs, perOp(measure(ctxOn, warmup, measured,
                            () -> Floor.execute(Scheduler.of(on), EXECUTE_N, EXECUTE_BATCH)), EXECUTE_N), "ns/op");
                    // Interleave registry on/off reps so drift hits both alike.
                    List<Double> sOn = new ArrayList<>();
                    List<Double> sOff = new ArrayList<>();
                    LongSupplier spawnBody = () -> {
                        long t0 = System.nanoTime();
                        Bodies.verify("spawn", Bodies.spawn(Spawner.GMP4J, Bodies.SPAWN_N), Bodies.SPAWN_N);
                        return System.nanoTime() - t0;
                    };
                    for (Reps rep = Reps.of(warmup, measured); rep.next(); ) {
                        long a = once(ctxOn, spawnBody);
                        long b = once(ctxOff, spawnBody);
                        if (rep.measuring()) {
                            sOn.add(a / (double) Bodies.SPAWN_N);
                            sOff.add(b / (double) Bodies.SPAWN_N);
                        }
                    }
                    printResult("floor-spawn-registry-on", impl, procs, sOn, "ns/op");
                    printResult("floor-spawn-registry-off", impl, procs, sOff, "ns/op");
                    System.err.println("stats reg-on: " + on.stats());
                    System.err.println("stats reg-off: " + off.stats());
                }
            }
            default -> throw new IllegalArgumentException("unknown impl '" + impl + "' for floor (gmp4j, jdk, direct)");
        }
    }

    private static List<Double> perOp(List<Double> nanos, double ops) {
        return nanos.stream().map(v -> v / ops).toList();
    }

    /** Runs {@code body} (returning elapsed ns) warmup+measured times; the measured elapsed ns. */
    private static List<Double> measure(BenchContext ctx, int warmup, int measured, LongSupplier body) {
        List<Double> samples = new ArrayList<>();
        for (Reps rep = Reps.of(warmup, measured); rep.next(); ) {
            long ns = once(ctx, body);
            if (rep.measuring()) {
                samples.add((double) ns);
            }
        }
        return samples;
    }

    private static long once(BenchContext ctx, LongSupplier body) {
        System.gc();
        long[] out = new long[1];
        ctx.run(() -> out[0] = body.getAsLong());
        return out[0];
    }

    static double median(List<Double> samples) {
        double[] a = samples.stream().mapToDouble(Double::doubleValue).sorted().toArray();
        int n = a.length;
        return n % 2 == 1 ? a[n / 2] : (a[n / 2 - 1] + a[n / 2]) / 2;
    }

    /**
     * Prints the {@code @result} line of one figure (value = the median of {@code samples}) on
     * stdout, where {@link BenchMain} reads it.
     */
    public static void printResult(String bench, String impl, int procs, List<Double> samples, String unit) {
        StringBuilder sb = new StringBuilder(RESULT_PREFIX);
        sb.append("bench=").append(bench).append(" impl=").append(impl).append(" procs=").append(procs)
                .append(" value=").append(fmt(median(samples))).append(" unit=").append(unit).append(" samples=");
        for (int i = 0; i < samples.size(); i++) {
            if (i > 0) {
                sb.append(',');
            }
            sb.append(fmt(samples.get(i)));
        }
        System.out.println(sb);
        System.out.flush();
    }

    static String fmt(double v) {
        return String.format(Locale.ROOT, "%.3f", v);
    }

    private static void startWatchdog(String what, long seconds) {
        if (seconds <= 0) {
            return;
        }
        Thread t = new Thread(() -> {
            try {
                Thread.sleep(seconds * 1000);
            } catch (InterruptedException e) {
                return;
            }
            StringBuilder sb = new StringBuilder("BenchChild " + what + ": TIMED OUT after " + seconds
                    + " s (-Dgmp4j.bench.timeout); platform thread stacks:\n");
            for (Map.Entry<Thread, StackTraceElement[]> e : Thread.getAllStackTraces().entrySet()) {
                sb.append('"').append(e.getKey().getName()).append("\" ").append(e.getKey().getState()).append('\n');
                for (StackTraceElement el : e.getValue()) {
                    sb.append("    at ").append(el).append('\n');
                }
            }
            System.err.print(sb);
            System.err.flush();
            // stats and the dump could block on a broken runtime: halt regardless 30 s later
            Thread halt = new Thread(() -> {
                try {
                    Thread.sleep(30_000);
                } catch (InterruptedException ignored) {
                    // halt now
                }
                Runtime.getRuntime().halt(3);
            }, "bench-watchdog-halt");
            halt.setDaemon(true);
            halt.start();
            for (GoRuntime rt : RUNTIMES) {
                System.err.println("runtime " + rt + ": " + rt.stats());
                System.err.flush();
                long live = rt.numGoroutine();
                String dump = rt.dump();
                int max = 20_000;
                System.err.println("goroutine dump of " + rt + " (" + live + " goroutines"
                        + (dump.length() > max ? ", first " + max + " chars" : "") + "):");
                System.err.println(dump.substring(0, Math.min(max, dump.length())));
                System.err.flush();
            }
            Runtime.getRuntime().halt(3);
        }, "bench-watchdog");
        t.setDaemon(true);
        t.start();
    }
}
