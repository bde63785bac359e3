package io.gmp4j.bench;

import io.gmp4j.bench.net.LoadClient;
import io.gmp4j.bench.net.NetBench;
import io.gmp4j.bench.remote.RemoteBench;
import io.gmp4j.bench.remote.RemoteDriver;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * Runs the benchmarks, each implementation and each GOMAXPROCS in a fresh JVM (or Go process),
 * and reports a table or JSON lines plus ratio lines.
 *
 * <pre>
 * java $FLAGS -Dgmp4j.java=&lt;java&gt; -Dgmp4j.jvmFlags="&lt;flags&gt;" -cp &lt;cp&gt; io.gmp4j.bench.BenchMain \
 *      [name...] [--procs 1,2] [--impls gmp4j,jdk,go] [--json] [--reps N] [--warmup N] [--min-warmup-ms MS] [--min-measure-ms MS] [--rounds N] [--quick] [--timeout S]
 *      [--window-ms MS] [--report DIR]
 * </pre>
 *
 * Benchmarks: {@code spawn}, {@code skynet}, {@code fib} (whole programs, ms), {@code fib-paired}
 * (fib at procs 1 and at the largest procs asked for, alternating in one process per impl, gmp4j
 * and direct only: the speed-up with both sides on the machine in the same state) and {@code floor}
 * (cost floors in ns/op: {@code floor-switch}, {@code floor-switch-locksupport},
 * {@code floor-execute}, {@code floor-spawn-registry-on}, {@code floor-spawn-registry-off}, and
 * {@code floor-switch}/{@code floor-spawn} for jdk and for {@code direct}, the bare custom-scheduler
 * hook ({@link DirectScheduler}); at
 * procs=1 only), and the channel benchmarks {@code pingpong} (+ {@code pingpong-cpu}),
 * {@code buffered-1p1c}, {@code buffered-4p4c}, {@code select}, {@code sieve},
 * {@code threadring} (see {@link ChanBodies}; jdk has no select, jox runs only these), and the
 * Savina actor benchmarks {@code savina-*} (see {@link SavinaBodies}; gmp4j, pekko and jdk
 * only; pekko runs only these), and the network benchmarks {@code echo-c1}, {@code echo-c16},
 * {@code echo-c256}, {@code bulk}, {@code chat-fanout}, {@code chat-ws-fanout} (gmp4j and vertx), {@code proxy-rps-c16}, {@code proxy-rps-c256}
 * and {@code proxy-bulk}, and {@code echo-turns-c16} and {@code echo-turns-c256} (the echo load
 * with every impl's server running at once, loaded in turns window by window, one load client
 * for them all) (see {@link io.gmp4j.bench.net.NetBench}: gmp4j, netty, jdk, vertx and
 * go echo servers; gmp4j, netty and go chat servers; gmp4j, netty and go proxies in front of the
 * Netty echo server, and direct, the echo server without a proxy), where each (impl, procs)
 * starts its server processes ({@link ServerChain}: {@link io.gmp4j.bench.net.ServerMain} or the
 * Go binary's server mode), then the load client ({@link io.gmp4j.bench.net.LoadClient}, JVM flags
 * {@code -Xms1g -Xmx1g -XX:+UseParallelGC -XX:+AlwaysPreTouch}, the same for every server) in a process of its own,
 * which reads the server's CPU time at its measurement windows' edges; the repetitions are
 * windows of {@code --window-ms}. The remote benchmarks {@code remote-pingpong},
 * {@code remote-throughput-1}, {@code remote-throughput-10} and {@code remote-kill-detect} (gmp4j
 * and pekko only, once at the largest procs) run {@link RemoteDriver} as the child, which starts
 * its peer JVM itself (see {@link RemoteBench}). Each
 * child JVM gets {@code <gmp4j.jvmFlags> -Xms2g -Xmx2g -XX:+UseParallelGC -XX:+AlwaysPreTouch}
 * plus the implementation's knob: gmp4j {@code -Dgmp4j.maxprocs=N}; jdk
 * {@code -Djdk.virtualThreadScheduler.parallelism=N -Djdk.virtualThreadScheduler.maxPoolSize=N};
 * jox the jdk flags and, at N=1, {@code -XX:ActiveProcessorCount=1} too (Jox sizes its spinning
 * from the processor count: compared at its best); go runs {@code benchmarks/go/bin/gmp4jbench} (built with {@code go build} when a {@code go}
 * binary is on PATH, else skipped) with {@code GOMAXPROCS=N}. Extra child JVM flags:
 * {@code -Dgmp4j.bench.childFlags="..."}. Exit status 1 when any child failed. Before the first
 * benchmark and after the last, the machine itself is read ({@link MachineProbe}: core-to-core
 * round trip, one core's speed) and reported with the results.
 */
public final class BenchMain {
    static final List<String> BENCHES = List.of("spawn", "skynet", "fib", "fib-paired", "floor",
            "pingpong", "buffered-1p1c", "buffered-4p4c", "select", "sieve", "threadring",
            "savina-pingpong", "savina-counting", "savina-threadring", "savina-fj-throughput",
            "savina-fj-creation", "savina-big", "savina-chameneos",
            "echo-c1", "echo-c16", "echo-c256", "bulk", "chat-fanout", "chat-ws-fanout",
            "proxy-rps-c16", "proxy-rps-c256", "proxy-bulk", "echo-turns-c16", "echo-turns-c256",
            "remote-pingpong", "remote-throughput-1", "remote-throughput-10", "remote-kill-detect",
            "hog", "agent-cost");
    /** The channel benchmarks ({@link ChanBodies}): gmp4j, jdk (not select), jox and go. */
    static final List<String> CHAN_BENCHES = List.of(
            "pingpong", "buffered-1p1c", "buffered-4p4c", "select", "sieve", "threadring");
    /**
     * The implementations. {@code direct} means a reference with no scheduler of ours: for
     * {@code floor} the bare custom-scheduler hook ({@link DirectScheduler}), for {@code fib} its
     * leaves on platform threads sharing a counter ({@link ParallelFloor}: the speed-up this
     * machine gives), for the proxy benchmarks the echo server reached with no proxy at all.
     */
    static final List<String> IMPLS = List.of("gmp4j", "jdk", "jox", "pekko", "netty", "vertx", "go", "direct");
    /** Units of figures where more is better (throughput): their ratios are gmp4j / other. */
    static final Set<String> HIGHER_IS_BETTER = Set.of("req/s", "MB/s", "lines/s", "msg/s");
    static final String DEFAULT_JVM_FLAGS =
            "--add-opens java.base/java.lang=ALL-UNNAMED --enable-native-access=ALL-UNNAMED "
                    + "--sun-misc-unsafe-memory-access=allow -Djdk.trackAllThreads=false";
    /**
     * Every child JVM's heap. {@code -XX:+AlwaysPreTouch} faults the heap in at start: without
     * it the first pass of allocation through a fresh 2 GiB heap takes a page fault per 4 KiB
     * (a virtual thread's first freeze allocates its stack chunk there), which made a run's first
     * seconds 2-3x slower than the rest and serialised the procs-2 runs on the kernel's mm lock
     * ("bimodal" fib: 24 ms before the heap had been touched once, 9 ms after).
     */
    static final List<String> CHILD_JVM_FLAGS = List.of("-Xms2g", "-Xmx2g", "-XX:+UseParallelGC", "-XX:+AlwaysPreTouch");
    /** The network benchmarks' load client JVM (the servers get {@link #CHILD_JVM_FLAGS}). */
    static final List<String> CLIENT_JVM_FLAGS = List.of("-Xms1g", "-Xmx1g", "-XX:+UseParallelGC", "-XX:+AlwaysPreTouch");

    /** One figure a child reported. */
    record Result(String bench, String impl, int procs, double value, String unit, String samples) {
    }

    /** A child that did not produce its figures. */
    record Failure(String bench, String impl, int procs, String message) {
    }

    static final class Options {
        final List<String> benches = new ArrayList<>();
        final List<String> impls = new ArrayList<>(IMPLS);
        List<Integer> procs = List.of(1, 2);
        boolean json;
        boolean quick;
        /** --report DIR, absolute: write a Markdown page and charts there ({@link ReportRun}). */
        Path reportDir;
        /** The arguments as given, for the report. */
        List<String> args = List.of();
        /** --pin: gmp4j's carriers pinned to their P's CPU ({@code -Dgmp4j.pincarriers=true}). */
        boolean pin;
        int reps = -1;
        int warmup = -1;
        /** Rounds over the implementations, alternating; a figure is the median of the rounds'. */
        int rounds = 1;
        long windowMillis = -1;
        long timeoutSeconds = 600;
        long minWarmupMillis = -1;
        long minMeasureMillis = -1;

        /** Time floor of the warm-up repetitions ({@link Reps}): --min-warmup-ms, else 2000 ms (--quick: 0). */
        long minWarmup() {
            return minWarmupMillis >= 0 ? minWarmupMillis : quick ? 0 : 2000;
        }

        /** Time floor of the measured repetitions: --min-measure-ms, else 1000 ms (--quick: 0). */
        long minMeasure() {
            return minMeasureMillis >= 0 ? minMeasureMillis : quick ? 0 : 1000;
        }

        /** A network benchmark's measurement window: --window-ms, else 1000 ms (--quick: 500 ms). */
        long window() {
            return windowMillis > 0 ? windowMillis : quick ? 500 : 1000;
        }

        int measured() {
            return reps > 0 ? reps : quick ? 3 : 5;
        }

        int warmups() {
            return warmup >= 0 ? warmup : quick ? 1 : 3;
        }

        /**
         * "warm-ups+measured" for one benchmark: the counts; short bodies such as fib (about
         * 10 ms a run) get their repetitions from the time floors instead ({@link Reps}).
         */
        String repsFor(String bench) {
            if (AgentBench.handles(bench) && reps <= 0 && warmup < 0) {
                return AgentBench.defaultReps(bench, quick);
            }
            if (bench.equals("savina-threadring") && reps <= 0 && warmup < 0) {
                // about 10 ms a run: more repetitions for the JIT and the median to settle
                return quick ? "5+5" : "10+10";
            }
            if (bench.equals("threadring") && reps <= 0 && warmup < 0) {
                // 10,000,000 hops (quick: 1,000,000) take seconds; one run is 10^7 samples already
                return quick ? "0+1" : "1+3";
            }
            if (RemoteBench.isRemote(bench) && reps <= 0 && warmup < 0) {
                return RemoteBench.reps(bench, quick);
            }
            if (NetBench.isNet(bench) && warmup < 0 && !quick) {
                // Servers under full load keep C2 busy for 10 s and more (gmp4j's echo server
                // recompiles its read and write paths until about 16 s; the measurements are in
                // benchmarks/PERFORMANCE-LOG.md). Twenty warm-up windows, for every
                // implementation alike: figures of settled servers.
                return NET_WARMUP_WINDOWS + "+" + measured();
            }
            return warmups() + "+" + measured();
        }
    }

    /** Warm-up windows of a network benchmark unless --warmup or --quick says otherwise. */
    static final int NET_WARMUP_WINDOWS = 20;

    private final Options opt;
    private final List<Result> results = new ArrayList<>();
    private final List<Failure> failures = new ArrayList<>();
    /** The machine readings, in order: ("start", reading), ("end", reading). */
    private final List<Map.Entry<String, MachineProbe.Reading>> probes = new ArrayList<>();

    private BenchMain(Options opt) {
        this.opt = opt;
    }

    public static void main(String[] args) {
        Options opt;
        try {
            opt = parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("gmp4j bench: " + e.getMessage());
            System.err.println(usage());
            System.exit(2);
            return;
        }
        if (opt == null) {
            System.out.println(usage());
            return;
        }
        System.exit(new BenchMain(opt).runAll());
    }

    static String usage() {
        return """
                usage: BenchMain [name...] [--procs 1,2] [--impls gmp4j,jdk,jox,pekko,netty,vertx,go,direct] [--json] [--reps N]
                                 [--warmup N] [--min-warmup-ms MS] [--min-measure-ms MS] [--rounds N] [--pin] [--quick] [--timeout SECONDS] [--window-ms MS]
                                 [--report DIR]
                  names:    spawn skynet fib fib-paired floor pingpong buffered-1p1c buffered-4p4c select sieve threadring
                            savina-pingpong savina-counting savina-threadring savina-fj-throughput
                            savina-fj-creation savina-big savina-chameneos
                            echo-c1 echo-c16 echo-c256 bulk chat-fanout proxy-rps-c16 proxy-rps-c256 proxy-bulk
                            chat-ws-fanout (the chat room over WebSockets; gmp4j and vertx only)
                            echo-turns-c16 echo-turns-c256 (every echo server at once, loaded in turns)
                            remote-pingpong remote-throughput-1 remote-throughput-10 remote-kill-detect
                            (two JVMs on loopback; gmp4j and pekko only; once, at the largest --procs)
                            hog agent-cost (loop preemption at procs 1: gmp4j, gmp4j-agent, gmp4j-none)
                            (default: all)
                  --procs   GOMAXPROCS / scheduler parallelism values (default 1,2); floor runs at 1 only;
                            fib-paired runs 1 and the largest value (at least 2) in one process
                  --impls   implementations (default all; go only when a `go` binary is on PATH and not for
                            savina-*, fib-paired or remote-*; jox only for the channel benchmarks, pekko only for savina-* and remote-*, jdk not for
                            select, fib-paired, chat-fanout or proxy-*, netty and vertx only for the network benchmarks, vertx not
                            for chat-fanout or proxy-*, direct only for floor (the bare custom-scheduler hook), fib, fib-paired
                            (its leaves on platform threads: the machine's speed-up ceiling) and proxy-* (the
                            echo server reached without a proxy))
                  --json    JSON lines instead of a table
                  --pin     run gmp4j with its carriers pinned to their P's CPU (-Dgmp4j.pincarriers=true);
                            its JSON lines then carry "pinned":true
                  --reps    measured repetitions (default 5, --quick 3); value = median
                  --warmup  warm-up repetitions (default 3, network benchmarks 10 windows, --quick 1)
                  --min-warmup-ms   warm-up lasts at least this long too (default 2000, --quick 0)
                  --min-measure-ms  measured repetitions last at least this long too, up to 500 of them
                            (default 1000, --quick 0): short bodies such as fib get many samples
                  --rounds  run every implementation N times, alternating (default 1); value = median of the rounds
                  --window-ms  network benchmarks: one repetition is a window this long (default 1000, --quick 500)
                  --timeout per-child watchdog in seconds (default 600)
                  --report  also write DIR/README.md (the figures, gmp4j/impl ratios, the machine probe) and
                            PNG charts in DIR/charts/; a relative DIR is relative to the working directory
                            (./gmp4j bench: the repository root)
                  system properties (./gmp4j passes them from GMP4J_JAVA_OPTS):
                  -Dgmp4j.java (child java), -Dgmp4j.jvmFlags (child JVM flags),
                  -Dgmp4j.bench.childFlags (extra child JVM flags, e.g. -Dgmp4j.schedtrace=100),
                  -Dgmp4j.bench.clientLoops (the load client's event-loop threads, default 2)""";
    }

    static Options parse(String[] args) {
        Options o = new Options();
        o.args = List.of(args);
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--json" -> o.json = true;
                case "--quick" -> o.quick = true;
                case "--pin" -> o.pin = true;
                case "--procs" -> o.procs = parseProcs(value(args, ++i, a));
                case "--report" -> o.reportDir = Path.of(value(args, ++i, a)).toAbsolutePath().normalize();
                case "--impls" -> {
                    o.impls.clear();
                    for (String s : value(args, ++i, a).split(",")) {
                        if (!IMPLS.contains(s.trim())) {
                            throw new IllegalArgumentException("unknown impl '" + s + "' (known: " + IMPLS + ")");
                        }
                        o.impls.add(s.trim());
                    }
                }
                case "--reps" -> o.reps = positive(value(args, ++i, a), a, 1);
                case "--warmup" -> o.warmup = positive(value(args, ++i, a), a, 0);
                case "--rounds" -> o.rounds = positive(value(args, ++i, a), a, 1);
                case "--window-ms" -> o.windowMillis = positive(value(args, ++i, a), a, 1);
                case "--timeout" -> o.timeoutSeconds = positive(value(args, ++i, a), a, 1);
                case "--min-warmup-ms" -> o.minWarmupMillis = positive(value(args, ++i, a), a, 0);
                case "--min-measure-ms" -> o.minMeasureMillis = positive(value(args, ++i, a), a, 0);
                case "-h", "--help", "help" -> {
                    return null;
                }
                default -> {
                    if (a.startsWith("--procs=")) {
                        o.procs = parseProcs(a.substring("--procs=".length()));
                    } else if (a.startsWith("-")) {
                        throw new IllegalArgumentException("unknown option '" + a + "'");
                    } else if (!BENCHES.contains(a)) {
                        throw new IllegalArgumentException("unknown benchmark '" + a + "' (known: " + BENCHES + ")");
                    } else if (!o.benches.contains(a)) {
                        o.benches.add(a);
                    }
                }
            }
        }
        if (o.benches.isEmpty()) {
            o.benches.addAll(BENCHES);
        }
        return o;
    }

    private static String value(String[] args, int i, String opt) {
        if (i >= args.length) {
            throw new IllegalArgumentException(opt + " needs a value");
        }
        return args[i];
    }

    private static int positive(String s, String opt, int min) {
        try {
            int n = Integer.parseInt(s.trim());
            if (n >= min) {
                return n;
            }
        } catch (NumberFormatException ignored) {
            // fall through
        }
        throw new IllegalArgumentException(opt + " needs an integer >= " + min + ", got '" + s + "'");
    }

    static List<Integer> parseProcs(String s) {
        Set<Integer> out = new LinkedHashSet<>();
        for (String p : s.split(",")) {
            out.add(positive(p, "--procs", 1));
        }
        return List.copyOf(out);
    }

    // =====================================================================================
    // Running
    // =====================================================================================

    private int runAll() {
        java.time.Instant started = java.time.Instant.now();
        if (opt.reportDir != null && !ReportRun.prepare(opt.reportDir)) {
            return 2;
        }
        String java = System.getProperty("gmp4j.java", defaultJava());
        List<String> jvmFlags = split(System.getProperty("gmp4j.jvmFlags", DEFAULT_JVM_FLAGS));
        List<String> childFlags = new ArrayList<>(split(System.getProperty("gmp4j.bench.childFlags", "")));
        if (opt.pin) {
            childFlags.add("-Dgmp4j.pincarriers=true"); // read by gmp4j only; the other impls ignore it
        }
        String cp = System.getProperty("java.class.path");

        Path goBinary = null;
        boolean wantGo = opt.impls.contains("go") && opt.benches.stream().anyMatch(b -> !b.equals("floor"));
        if (wantGo) {
            goBinary = buildGo();
        }
        ServerLauncher launcher = new ServerLauncher(java, jvmFlags, childFlags, cp, goBinary);

        probe("start");
        for (String bench : opt.benches) {
            List<Integer> procsList = opt.procs;
            if (bench.equals("floor")) {
                if (!opt.procs.contains(1)) {
                    note("floor measures cost floors at procs=1 only; running it at procs=1");
                }
                procsList = List.of(1);
            }
            if (AgentBench.handles(bench)) {
                procsList = List.of(1); // loop preemption at one P: see AgentBench
            }
            if (bench.equals("fib-paired")) {
                // one process per impl runs procs 1 and the largest procs asked for, alternating
                int most = opt.procs.stream().mapToInt(Integer::intValue).max().orElse(2);
                if (most < 2) {
                    note("fib-paired compares procs 1 with procs N >= 2; running it with N = 2");
                    most = 2;
                }
                procsList = List.of(most);
            }
            if (RemoteBench.isRemote(bench)) {
                procsList = List.of(opt.procs.stream().mapToInt(Integer::intValue).max().orElse(2)); // once, see RemoteBench
            }
            for (int procs : procsList) {
                String reps = opt.repsFor(bench);
                for (int round = 0; round < opt.rounds; round++) {
                    if (NetBench.takesTurns(bench)) {
                        boolean haveGo = goBinary != null;
                        List<String> impls = opt.impls.stream().filter(i -> NetBench.impls(bench).contains(i)
                                && (!i.equals("go") || haveGo)).toList();
                        if (!impls.isEmpty()) {
                            runNetInTurns(bench, impls, procs, reps, launcher);
                        }
                        continue;
                    }
                    for (String impl : opt.impls) {
                        if (AgentBench.handles(bench)) {
                            if (impl.equals("gmp4j")) {
                                for (String v : AgentBench.variants(bench)) {
                                    List<String> cmd = childJvm(java, jvmFlags, impl, procs, childFlags);
                                    cmd.addAll(AgentBench.flags(v, cp));
                                    cmd.add("-Dgmp4j.bench.timeout=" + opt.timeoutSeconds);
                                    cmd.addAll(List.of("-cp", cp, BenchChild.class.getName(), bench, v, "1", reps));
                                    runChild(bench, v, procs, cmd, Map.of());
                                }
                            }
                            continue; // gmp4j's runtimes only, with and without the agent
                        }
                        if (NetBench.isNet(bench)) {
                            if (NetBench.impls(bench).contains(impl) && (!impl.equals("go") || goBinary != null)) {
                                runNet(bench, impl, procs, reps, launcher);
                            }
                            continue;
                        }
                        if (RemoteBench.isRemote(bench)) {
                            if (RemoteBench.IMPLS.contains(impl)) {
                                List<String> cmd = childJvm(java, jvmFlags, impl, procs, childFlags);
                                cmd.addAll(RemoteBench.JVM_FLAGS);
                                cmd.add("-Dgmp4j.bench.timeout=" + opt.timeoutSeconds);
                                cmd.add("-Dgmp4j.bench.minWarmupMs=" + opt.minWarmup());
                                cmd.add("-Dgmp4j.bench.minMeasureMs=" + opt.minMeasure());
                                cmd.add("-Dgmp4j.bench.quick=" + opt.quick);
                                cmd.addAll(List.of("-cp", cp, RemoteDriver.class.getName(), bench, impl,
                                        Integer.toString(procs), reps));
                                runChild(bench, impl, procs, cmd, Map.of());
                            }
                            continue;
                        }
                        if (impl.equals("netty") || impl.equals("vertx")) {
                            continue; // the network benchmarks only
                        }
                        if (impl.equals("direct") && !bench.equals("floor") && !bench.startsWith("fib")) {
                            continue; // the bare custom-scheduler hook, or fib's parallel ceiling: floors only
                        }
                        if (bench.equals("fib-paired") && !impl.equals("gmp4j") && !impl.equals("direct")) {
                            continue; // two procs in one process: only gmp4j's runtimes and direct's threads can
                        }
                        boolean savina = BenchChild.SAVINA.contains(bench);
                        if (impl.equals("jox") && !CHAN_BENCHES.contains(bench)) {
                            continue; // Jox is a channel library: it has nothing to say on spawn etc.
                        }
                        if (impl.equals("pekko") && !savina) {
                            continue; // Pekko runs the actor benchmarks only
                        }
                        if (savina && impl.equals("go")) {
                            continue; // no Go version of the actor benchmarks
                        }
                        if (impl.equals("jdk") && bench.equals("select")) {
                            continue; // java.util.concurrent has no select
                        }
                        if (impl.equals("go")) {
                            if (bench.equals("floor") || goBinary == null) {
                                continue;
                            }
                            List<String> cmd = List.of(goBinary.toString(), bench, reps);
                            runChild(bench, impl, procs, cmd, Map.of("GOMAXPROCS", Integer.toString(procs),
                                    "GMP4J_BENCH_QUICK", opt.quick ? "1" : "",
                                    "GMP4J_BENCH_MIN_WARMUP_MS", Long.toString(opt.minWarmup()),
                                    "GMP4J_BENCH_MIN_MEASURE_MS", Long.toString(opt.minMeasure())));
                            continue;
                        }
                        List<String> cmd = childJvm(java, jvmFlags, impl, procs, childFlags);
                        cmd.add("-Dgmp4j.bench.timeout=" + opt.timeoutSeconds);
                        cmd.add("-Dgmp4j.bench.minWarmupMs=" + opt.minWarmup());
                        cmd.add("-Dgmp4j.bench.minMeasureMs=" + opt.minMeasure());
                        if (opt.quick) {
                            cmd.add("-Dgmp4j.bench.quick=true"); // smaller threadring
                        }
                        cmd.addAll(List.of("-cp", cp, BenchChild.class.getName(), bench, impl,
                                Integer.toString(procs), reps));
                        runChild(bench, impl, procs, cmd, Map.of());
                    }
                }
            }
        }
        probe("end");
        report();
        boolean reported = opt.reportDir == null || ReportRun.write(opt.reportDir, opt, started, java, jvmFlags,
                childFlags, results, failures, probes);
        return failures.isEmpty() && reported ? 0 : 1;
    }

    /**
     * Reads the machine ({@link MachineProbe}) and reports it: a line on stderr, and with
     * {@code --json} the lines {@code machine-c2c} (procs 2) and {@code machine-step} (procs 1),
     * impl {@code direct}, with {@code "when"} saying start or end. A run whose two readings
     * differ much was measured on a machine that changed under it.
     */
    private void probe(String when) {
        MachineProbe.Reading r = MachineProbe.read();
        probes.add(Map.entry(when, r));
        System.err.println("gmp4j bench: machine at " + when + ": " + r.describe());
        if (probes.size() > 1 && MachineProbe.changed(probes.getFirst().getValue(), r)) {
            System.err.println("gmp4j bench: NOTE the machine changed during this run (" + changeOf(probes.getFirst().getValue(), r)
                    + "): figures taken before and after the change are not comparable; run again or use --rounds");
        }
        if (opt.json) {
            if (!Double.isNaN(r.c2cNs())) {
                System.out.println("{\"bench\":\"machine-c2c\",\"impl\":\"direct\",\"procs\":2,\"value\":"
                        + BenchChild.fmt(r.c2cNs()) + ",\"unit\":\"ns/op\",\"when\":\"" + when + "\""
                        + (r.pinned() ? "" : ",\"pinned\":false") + "}");
            }
            System.out.println("{\"bench\":\"machine-step\",\"impl\":\"direct\",\"procs\":1,\"value\":"
                    + BenchChild.fmt(r.stepNs()) + ",\"unit\":\"ns/op\",\"when\":\"" + when + "\"}");
            System.out.flush();
        }
    }

    private static String changeOf(MachineProbe.Reading a, MachineProbe.Reading b) {
        return String.format(Locale.ROOT, "core-to-core round trip %.0f -> %.0f ns, one dependent step %.2f -> %.2f ns",
                a.c2cNs(), b.c2cNs(), a.stepNs(), b.stepNs());
    }

    /**
     * A child JVM's command up to its classpath: the JVM flags, {@link #CHILD_JVM_FLAGS}, the
     * implementation's procs knob, the extra child flags.
     */
    static List<String> childJvm(String java, List<String> jvmFlags, String impl, int procs,
                                         List<String> childFlags) {
        List<String> cmd = new ArrayList<>();
        cmd.add(java);
        cmd.addAll(jvmFlags);
        cmd.addAll(CHILD_JVM_FLAGS);
        if (impl.equals("gmp4j")) {
            cmd.add("-Dgmp4j.maxprocs=" + procs);
        } else if (impl.equals("jdk") || impl.equals("jox")) {
            cmd.add("-Djdk.virtualThreadScheduler.parallelism=" + procs);
            cmd.add("-Djdk.virtualThreadScheduler.maxPoolSize=" + procs);
            if (impl.equals("jox") && procs == 1) {
                cmd.add("-XX:ActiveProcessorCount=1");
            }
        } // netty and vertx take procs as their event-loop count (ServerMain's argument)
        cmd.addAll(childFlags);
        return cmd;
    }

    /**
     * A network benchmark for one (impl, procs): the server processes first ({@link ServerChain}:
     * the server, or the echo backend and the proxy), then the load client as the child whose
     * results count, with the pid whose CPU time the {@code -cpu} rows measure; the servers are
     * stopped after.
     */
    private void runNet(String bench, String impl, int procs, String reps, ServerLauncher launcher) {
        ServerChain servers;
        try {
            servers = ServerChain.start(launcher, bench, impl, procs);
        } catch (IOException e) {
            fail(bench, impl, procs, "the server did not start: " + e.getMessage(), List.of(), new ArrayDeque<>());
            return;
        }
        try (servers) {
            List<String> cmd = clientCommand(launcher, bench, impl, procs, reps, Integer.toString(servers.port()));
            if (servers.cpuPid() > 0) {
                cmd.addAll(List.of("--server-pid", Long.toString(servers.cpuPid())));
            }
            runChild(bench, impl, procs, cmd, Map.of());
        }
    }

    /**
     * A benchmark whose servers take turns ({@link NetBench#takesTurns}): every impl's server
     * at once, then one load client that loads them in turns; its result lines carry each
     * server's impl.
     */
    private void runNetInTurns(String bench, List<String> impls, int procs, String reps, ServerLauncher launcher) {
        String all = String.join(",", impls);
        List<ServerChain> servers = new ArrayList<>();
        try {
            for (String impl : impls) {
                try {
                    servers.add(ServerChain.start(launcher, bench, impl, procs));
                } catch (IOException e) {
                    fail(bench, impl, procs, "the server did not start: " + e.getMessage(), List.of(), new ArrayDeque<>());
                    return;
                }
            }
            List<String> cmd = clientCommand(launcher, bench, all, procs, reps,
                    servers.stream().map(c -> Integer.toString(c.port())).collect(Collectors.joining(",")));
            cmd.addAll(List.of("--server-pid", servers.stream().map(c -> Long.toString(c.cpuPid()))
                    .collect(Collectors.joining(","))));
            runChild(bench, all, procs, cmd, Map.of());
        } finally {
            servers.forEach(ServerChain::close);
        }
    }

    /** The load client's command up to its options' end, less {@code --server-pid}. */
    private List<String> clientCommand(ServerLauncher launcher, String bench, String impl, int procs, String reps,
                                       String ports) {
        List<String> cmd = new ArrayList<>();
        cmd.add(launcher.java());
        cmd.addAll(launcher.jvmFlags());
        cmd.addAll(CLIENT_JVM_FLAGS);
        cmd.add("-Dgmp4j.bench.timeout=" + opt.timeoutSeconds);
        cmd.addAll(List.of("-cp", launcher.classpath(), LoadClient.class.getName(), bench, impl,
                Integer.toString(procs), reps, ports,
                "--window-ms", Long.toString(opt.window()),
                "--loops", Integer.toString(Integer.getInteger("gmp4j.bench.clientLoops", 2))));
        return cmd;
    }

    private void runChild(String bench, String impl, int procs, List<String> cmd, Map<String, String> env) {
        String label = "[" + bench + " " + impl + " p" + procs + "] ";
        System.err.println("gmp4j bench: running " + bench + " impl=" + impl + " procs=" + procs + " ...");
        Deque<String> tail = new ArrayDeque<>();
        List<Result> got = new ArrayList<>();
        List<String> parseErrors = new ArrayList<>();
        Process p;
        try {
            ProcessBuilder pb = new ProcessBuilder(cmd);
            pb.environment().putAll(env);
            p = pb.start();
        } catch (IOException e) {
            fail(bench, impl, procs, "cannot start the child: " + e.getMessage(), cmd, tail);
            return;
        }
        try {
            p.getOutputStream().close(); // children read no input
        } catch (IOException ignored) {
            // nothing to close
        }
        Thread errReader = pump(p.getErrorStream(), line -> {
            System.err.println(label + line);
            keep(tail, line);
        });
        Thread outReader = pump(p.getInputStream(), line -> {
            if (line.startsWith(BenchChild.RESULT_PREFIX)) {
                try {
                    got.add(parseResult(line));
                } catch (IllegalArgumentException e) {
                    parseErrors.add(e.getMessage());
                }
            } else {
                System.err.println(label + "(stdout) " + line);
                keep(tail, line);
            }
        });
        boolean finished;
        try {
            finished = p.waitFor(opt.timeoutSeconds + 60, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            fail(bench, impl, procs, "interrupted", cmd, tail);
            return;
        }
        if (!finished) {
            p.destroyForcibly();
        }
        try {
            errReader.join(10_000);
            outReader.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        if (!finished) {
            fail(bench, impl, procs, "did not finish within " + (opt.timeoutSeconds + 60) + " s; killed", cmd, tail);
            return;
        }
        int rc = p.exitValue();
        if (rc != 0) {
            String why = rc == 3 ? " (its watchdog fired: timed out)" : "";
            fail(bench, impl, procs, "child exited with status " + rc + why, cmd, tail);
            return;
        }
        if (!parseErrors.isEmpty()) {
            fail(bench, impl, procs, "unparsable result line(s): " + parseErrors, cmd, tail);
            return;
        }
        if (got.isEmpty()) {
            fail(bench, impl, procs, "child exited 0 but printed no result line", cmd, tail);
            return;
        }
        for (Result r : got) {
            if (!List.of(impl.split(",")).contains(r.impl()) || (r.procs() != procs && !(bench.equals("fib-paired") && r.procs() == 1))) {
                note("child for " + impl + " procs=" + procs + " reported impl=" + r.impl() + " procs=" + r.procs());
            }
            results.add(r);
            System.err.println("gmp4j bench:   " + r.bench() + " " + r.impl() + " procs=" + r.procs() + ": "
                    + BenchChild.fmt(r.value()) + " " + r.unit() + " (samples " + r.samples() + ")");
            if (opt.json && opt.rounds == 1) {
                printJson(r, opt.pin);
            }
        }
    }

    private static void printJson(Result r, boolean pinned) {
        System.out.println("{\"bench\":\"" + r.bench() + "\",\"impl\":\"" + r.impl() + "\",\"procs\":"
                + r.procs() + ",\"value\":" + BenchChild.fmt(r.value()) + ",\"unit\":\"" + r.unit() + "\""
                + (pinned && r.impl().equals("gmp4j") ? ",\"pinned\":true}" : "}"));
        System.out.flush();
    }

    /**
     * With {@code --rounds N > 1}: each (bench, impl, procs, unit) ran N times, the
     * implementations alternating within each round, so a slow minute on a shared machine hits
     * them alike. The figure is the median of the rounds' medians; its samples are those.
     */
    static List<Result> mergeRounds(List<Result> all) {
        Map<List<Object>, List<Result>> groups = new java.util.LinkedHashMap<>();
        for (Result r : all) {
            groups.computeIfAbsent(List.of(r.bench(), r.impl(), r.procs(), r.unit()), k -> new ArrayList<>()).add(r);
        }
        List<Result> out = new ArrayList<>();
        for (List<Result> g : groups.values()) {
            Result first = g.getFirst();
            List<Double> values = g.stream().map(Result::value).toList();
            String samples = String.join(",", values.stream().map(BenchChild::fmt).toList());
            out.add(new Result(first.bench(), first.impl(), first.procs(), BenchChild.median(values), first.unit(), samples));
        }
        return out;
    }

    private void fail(String bench, String impl, int procs, String message, List<String> cmd, Deque<String> tail) {
        failures.add(new Failure(bench, impl, procs, message));
        StringBuilder sb = new StringBuilder();
        sb.append("gmp4j bench: FAILED ").append(bench).append(" impl=").append(impl).append(" procs=").append(procs)
                .append(": ").append(message).append('\n');
        if (!cmd.isEmpty()) {
            sb.append("  command: ").append(String.join(" ", cmd)).append('\n');
        }
        synchronized (tail) {
            if (tail.isEmpty()) {
                sb.append("  (no output)\n");
            } else {
                sb.append("  last output lines:\n");
                for (String l : tail) {
                    sb.append("    ").append(l).append('\n');
                }
            }
        }
        System.err.print(sb);
        if (opt.json) {
            System.out.println("{\"bench\":\"" + bench + "\",\"impl\":\"" + impl + "\",\"procs\":" + procs
                    + ",\"error\":\"" + jsonEscape(message) + "\"}");
            System.out.flush();
        }
    }

    static void keep(Deque<String> tail, String line) {
        synchronized (tail) {
            tail.addLast(line);
            while (tail.size() > 60) {
                tail.removeFirst();
            }
        }
    }

    static Thread pump(InputStream in, Consumer<String> sink) {
        Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    sink.accept(line);
                }
            } catch (IOException e) {
                sink.accept("(reading child output failed: " + e + ")");
            }
        }, "bench-pump");
        t.setDaemon(true);
        t.start();
        return t;
    }

    /** Parses {@code @result bench=.. impl=.. procs=.. value=.. unit=.. samples=..}. */
    static Result parseResult(String line) {
        Map<String, String> kv = new LinkedHashMap<>();
        for (String tok : line.substring(BenchChild.RESULT_PREFIX.length()).trim().split("\\s+")) {
            int eq = tok.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("bad token '" + tok + "' in: " + line);
            }
            kv.put(tok.substring(0, eq), tok.substring(eq + 1));
        }
        for (String k : List.of("bench", "impl", "procs", "value", "unit")) {
            if (!kv.containsKey(k)) {
                throw new IllegalArgumentException("missing " + k + " in: " + line);
            }
        }
        try {
            return new Result(kv.get("bench"), kv.get("impl"), Integer.parseInt(kv.get("procs")),
                    Double.parseDouble(kv.get("value")), kv.get("unit"), kv.getOrDefault("samples", ""));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("bad number in: " + line);
        }
    }

    // =====================================================================================
    // Go
    // =====================================================================================

    /** Builds benchmarks/go into benchmarks/go/bin/gmp4jbench; null (with a note) when impossible. */
    private Path buildGo() {
        Path go = findOnPath("go");
        if (go == null) {
            note("no `go` binary on PATH: skipping the go implementation (install Go 1.19+ to compare with Go)");
            return null;
        }
        Path dir = goDir();
        if (dir == null) {
            note("cannot find benchmarks/go (set -Dgmp4j.bench.goDir): skipping the go implementation");
            return null;
        }
        Path bin = dir.resolve("bin").resolve("gmp4jbench");
        List<String> cmd = List.of(go.toString(), "build", "-o", bin.toString(), ".");
        System.err.println("gmp4j bench: building the Go benchmark: (cd " + dir + " && " + String.join(" ", cmd) + ")");
        try {
            Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
            p.getOutputStream().close();
            Deque<String> out = new ArrayDeque<>();
            Thread t = pump(p.getInputStream(), l -> keep(out, l));
            if (!p.waitFor(300, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                note("`go build` did not finish in 300 s: skipping the go implementation");
                return null;
            }
            t.join(5_000);
            if (p.exitValue() != 0) {
                failures.add(new Failure("build", "go", 0, "go build failed with status " + p.exitValue()));
                System.err.println("gmp4j bench: FAILED `go build` (status " + p.exitValue() + "), skipping go:");
                synchronized (out) {
                    out.forEach(l -> System.err.println("    " + l));
                }
                return null;
            }
        } catch (IOException e) {
            note("cannot run `go build`: " + e.getMessage() + ": skipping the go implementation");
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
        return bin;
    }

    private static Path findOnPath(String name) {
        String path = System.getenv("PATH");
        if (path == null) {
            return null;
        }
        for (String d : path.split(File.pathSeparator)) {
            if (d.isEmpty()) {
                continue;
            }
            Path p = Path.of(d, name);
            if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                return p;
            }
        }
        return null;
    }

    /** benchmarks/go: -Dgmp4j.bench.goDir, else next to target/classes, else from the working dir. */
    private static Path goDir() {
        List<Path> candidates = new ArrayList<>();
        String prop = System.getProperty("gmp4j.bench.goDir");
        if (prop != null) {
            candidates.add(Path.of(prop));
        }
        try {
            Path classes = Path.of(BenchMain.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            // benchmarks/target/classes or benchmarks/target/<jar>: both have target as parent
            Path target = classes.getParent();
            if (target != null && target.getParent() != null) {
                candidates.add(target.getParent().resolve("go"));
            }
        } catch (URISyntaxException | RuntimeException ignored) {
            // fall back to the working directory
        }
        candidates.add(Path.of("benchmarks", "go"));
        candidates.add(Path.of("go"));
        for (Path c : candidates) {
            if (Files.isRegularFile(c.resolve("go.mod"))) {
                return c.toAbsolutePath().normalize();
            }
        }
        return null;
    }

    // =====================================================================================
    // Reporting
    // =====================================================================================

    private void report() {
        if (opt.rounds > 1) {
            List<Result> merged = mergeRounds(results);
            results.clear();
            results.addAll(merged);
            for (Result r : results) {
                System.err.println("gmp4j bench: " + r.bench() + " " + r.impl() + " procs=" + r.procs() + ": "
                        + BenchChild.fmt(r.value()) + " " + r.unit() + " (median of " + opt.rounds + " rounds: "
                        + r.samples() + ")");
                if (opt.json) {
                    printJson(r, opt.pin);
                }
            }
        }
        if (!opt.json) {
            printTable();
        }
        printRatios();
        if (!failures.isEmpty()) {
            System.err.println("gmp4j bench: " + failures.size() + " run(s) FAILED:");
            for (Failure f : failures) {
                System.err.println("  " + f.bench() + " impl=" + f.impl() + " procs=" + f.procs() + ": " + f.message());
            }
        }
    }

    private List<String> implsPresent() {
        List<String> out = new ArrayList<>();
        for (String i : IMPLS) {
            if (results.stream().anyMatch(r -> r.impl().equals(i))) {
                out.add(i);
            }
        }
        return out;
    }

    /** (bench, procs) keys in the order results came. */
    private List<Map.Entry<String, Integer>> rowKeys() {
        List<Map.Entry<String, Integer>> keys = new ArrayList<>();
        for (Result r : results) {
            Map.Entry<String, Integer> k = Map.entry(r.bench(), r.procs());
            if (!keys.contains(k)) {
                keys.add(k);
            }
        }
        return keys;
    }

    private Result find(String bench, String impl, int procs) {
        for (Result r : results) {
            if (r.bench().equals(bench) && r.impl().equals(impl) && r.procs() == procs) {
                return r;
            }
        }
        return null;
    }

    private boolean failed(String bench, String impl, int procs) {
        return failures.stream().anyMatch(f -> f.bench().equals(bench) && f.impl().equals(impl) && f.procs() == procs);
    }

    private void printTable() {
        List<String> impls = implsPresent();
        StringBuilder sb = new StringBuilder();
        if (opt.pin) {
            sb.append("gmp4j ran with its carriers pinned to their P's CPU (--pin)\n");
        }
        sb.append(String.format(Locale.ROOT, "%-26s %5s", "bench", "procs"));
        for (String i : impls) {
            sb.append(String.format(Locale.ROOT, " %12s", i));
        }
        sb.append("  unit\n");
        for (Map.Entry<String, Integer> k : rowKeys()) {
            sb.append(String.format(Locale.ROOT, "%-26s %5d", k.getKey(), k.getValue()));
            String unit = "";
            for (String i : impls) {
                Result r = find(k.getKey(), i, k.getValue());
                String cell = r != null ? BenchChild.fmt(r.value())
                        : failed(k.getKey(), i, k.getValue()) ? "FAILED" : "-";
                if (r != null) {
                    unit = r.unit();
                }
                sb.append(String.format(Locale.ROOT, " %12s", cell));
            }
            sb.append("  ").append(unit).append('\n');
        }
        for (Failure f : failures) {
            if (rowKeys().stream().noneMatch(k -> k.getKey().equals(f.bench()) && k.getValue() == f.procs())) {
                sb.append(String.format(Locale.ROOT, "%-26s %5d  %s FAILED%n", f.bench(), f.procs(), f.impl()));
            }
        }
        for (Map.Entry<String, MachineProbe.Reading> p : probes) {
            sb.append("machine at ").append(p.getKey()).append(": ").append(p.getValue().describe()).append('\n');
        }
        if (probes.size() > 1 && MachineProbe.changed(probes.getFirst().getValue(), probes.getLast().getValue())) {
            sb.append("NOTE: the machine changed during this run; compare these figures with care\n");
        }
        System.out.print(sb);
        System.out.println();
    }

    private void printRatios() {
        // For each bench and procs, > 1 means gmp4j is better: other/gmp4j for times and costs
        // (lower is better), gmp4j/other for throughputs (req/s, MB/s, lines/s).
        for (Map.Entry<String, Integer> k : rowKeys()) {
            String bench = k.getKey();
            int procs = k.getValue();
            Result g = find(bench, "gmp4j", procs);
            if (g == null) {
                continue;
            }
            for (String other : List.of("jdk", "jox", "pekko", "netty", "vertx", "go")) {
                Result o = find(bench, other, procs);
                if (bench.equals("floor-switch-locksupport") && other.equals("jdk")) {
                    o = find("floor-switch", "jdk", procs); // the jdk figure is the same LockSupport ping-pong
                }
                if (o == null) {
                    continue;
                }
                if (HIGHER_IS_BETTER.contains(g.unit())) {
                    ratio(bench, procs, "gmp4j/" + other, g.value() / o.value(), other);
                } else {
                    ratio(bench, procs, other + "/gmp4j", o.value() / g.value(), other);
                }
            }
        }
        // registry cost
        for (Map.Entry<String, Integer> k : rowKeys()) {
            if (!k.getKey().equals("floor-spawn-registry-on")) {
                continue;
            }
            Result on = find("floor-spawn-registry-on", "gmp4j", k.getValue());
            Result off = find("floor-spawn-registry-off", "gmp4j", k.getValue());
            if (on != null && off != null) {
                double v = on.value() / off.value();
                if (opt.json) {
                    System.out.println("{\"bench\":\"floor-spawn-registry\",\"procs\":" + k.getValue()
                            + ",\"ratio\":\"on/off\",\"value\":" + BenchChild.fmt(v) + "}");
                } else {
                    System.out.printf(Locale.ROOT, "floor-spawn procs=%d: goroutine registry on/off = %.2fx "
                            + "(%+.1f ns per goroutine)%n", k.getValue(), v, on.value() - off.value());
                }
            }
        }
        // scaling: each impl's own procs=1 / procs=P
        for (String bench : rowKeys().stream().map(Map.Entry::getKey).distinct().toList()) {
            if (bench.startsWith("floor")) {
                continue;
            }
            for (String impl : IMPLS) {
                Result one = find(bench, impl, 1);
                if (one == null) {
                    continue;
                }
                for (int procs : opt.procs) {
                    Result r = find(bench, impl, procs);
                    if (procs == 1 || r == null) {
                        continue;
                    }
                    boolean more = HIGHER_IS_BETTER.contains(r.unit());
                    double v = more ? r.value() / one.value() : one.value() / r.value();
                    if (opt.json) {
                        String name = more ? "procs" + procs + "/procs1" : "procs1/procs" + procs;
                        System.out.println("{\"bench\":\"" + bench + "\",\"impl\":\"" + impl + "\",\"ratio\":\""
                                + name + "\",\"value\":" + BenchChild.fmt(v) + "}");
                    } else {
                        System.out.printf(Locale.ROOT, "%s %s: speed-up from procs 1 to %d = %.2fx%n",
                                bench, impl, procs, v);
                    }
                }
            }
        }
        System.out.flush();
    }

    private void ratio(String bench, int procs, String name, double v, String other) {
        if (opt.json) {
            System.out.println("{\"bench\":\"" + bench + "\",\"procs\":" + procs + ",\"ratio\":\"" + name
                    + "\",\"value\":" + BenchChild.fmt(v) + "}");
        } else if (v >= 1) {
            System.out.printf(Locale.ROOT, "%s procs=%d: gmp4j is %.2fx faster than %s%n", bench, procs, v, other);
        } else {
            System.out.printf(Locale.ROOT, "%s procs=%d: gmp4j is %.2fx slower than %s%n", bench, procs, 1 / v, other);
        }
    }

    // =====================================================================================
    // Helpers
    // =====================================================================================

    private static void note(String msg) {
        System.err.println("gmp4j bench: note: " + msg);
    }

    private static String defaultJava() {
        return ProcessHandle.current().info().command()
                .orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    }

    static List<String> split(String flags) {
        String t = flags.trim();
        return t.isEmpty() ? List.of() : Arrays.asList(t.split("\\s+"));
    }

    static String jsonEscape(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.toString();
    }
}
