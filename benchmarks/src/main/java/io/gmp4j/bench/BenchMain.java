package io.gmp4j.bench;

import io.gmp4j.bench.ChildRunner.Result;
import io.gmp4j.bench.net.LoadClient;
import io.gmp4j.bench.net.NetBench;
import io.gmp4j.bench.remote.RemoteBench;
import io.gmp4j.bench.remote.RemoteDriver;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
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

    private final BenchOptions opt;
    private final ChildRunner children;
    /** The machine readings, in order: ("start", reading), ("end", reading). */
    private final List<Map.Entry<String, MachineProbe.Reading>> probes = new ArrayList<>();

    private BenchMain(BenchOptions opt) {
        this.opt = opt;
        this.children = new ChildRunner(opt);
    }

    public static void main(String[] args) {
        BenchOptions opt;
        try {
            opt = BenchOptions.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("gmp4j bench: " + e.getMessage());
            System.err.println(BenchOptions.usage());
            System.exit(2);
            return;
        }
        if (opt == null) {
            System.out.println(BenchOptions.usage());
            return;
        }
        System.exit(new BenchMain(opt).runAll());
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
            goBinary = GoBinary.build(children.failures);
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
                        if (AgentBench.handles(bench) && !(impl.equals("go") && AgentBench.hasGo(bench))) {
                            if (impl.equals("gmp4j")) {
                                for (String v : AgentBench.variants(bench)) {
                                    List<String> cmd = ChildRunner.childJvm(java, jvmFlags, impl, procs, childFlags);
                                    cmd.addAll(AgentBench.flags(v, cp));
                                    cmd.add("-Dgmp4j.bench.timeout=" + opt.timeoutSeconds);
                                    cmd.addAll(List.of("-cp", cp, BenchChild.class.getName(), bench, v, "1", reps));
                                    children.run(bench, v, procs, cmd, Map.of());
                                }
                            }
                            continue; // gmp4j's runtimes, with and without the agent; Go's runs below
                        }
                        if (NetBench.isNet(bench)) {
                            if (NetBench.impls(bench).contains(impl) && (!impl.equals("go") || goBinary != null)) {
                                runNet(bench, impl, procs, reps, launcher);
                            }
                            continue;
                        }
                        if (RemoteBench.isRemote(bench)) {
                            if (RemoteBench.IMPLS.contains(impl)) {
                                List<String> cmd = ChildRunner.childJvm(java, jvmFlags, impl, procs, childFlags);
                                cmd.addAll(RemoteBench.JVM_FLAGS);
                                cmd.add("-Dgmp4j.bench.timeout=" + opt.timeoutSeconds);
                                cmd.add("-Dgmp4j.bench.minWarmupMs=" + opt.minWarmup());
                                cmd.add("-Dgmp4j.bench.minMeasureMs=" + opt.minMeasure());
                                cmd.add("-Dgmp4j.bench.quick=" + opt.quick);
                                cmd.addAll(List.of("-cp", cp, RemoteDriver.class.getName(), bench, impl,
                                        Integer.toString(procs), reps));
                                children.run(bench, impl, procs, cmd, Map.of());
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
                            children.run(bench, impl, procs, cmd, Map.of("GOMAXPROCS", Integer.toString(procs),
                                    "GMP4J_BENCH_QUICK", opt.quick ? "1" : "",
                                    "GMP4J_BENCH_MIN_WARMUP_MS", Long.toString(opt.minWarmup()),
                                    "GMP4J_BENCH_MIN_MEASURE_MS", Long.toString(opt.minMeasure())));
                            continue;
                        }
                        List<String> cmd = ChildRunner.childJvm(java, jvmFlags, impl, procs, childFlags);
                        cmd.add("-Dgmp4j.bench.timeout=" + opt.timeoutSeconds);
                        cmd.add("-Dgmp4j.bench.minWarmupMs=" + opt.minWarmup());
                        cmd.add("-Dgmp4j.bench.minMeasureMs=" + opt.minMeasure());
                        if (opt.quick) {
                            cmd.add("-Dgmp4j.bench.quick=true"); // smaller threadring
                        }
                        cmd.addAll(List.of("-cp", cp, BenchChild.class.getName(), bench, impl,
                                Integer.toString(procs), reps));
                        children.run(bench, impl, procs, cmd, Map.of());
                    }
                }
            }
        }
        probe("end");
        report();
        boolean reported = opt.reportDir == null || ReportRun.write(opt.reportDir, opt, started, java, jvmFlags,
                childFlags, children.results, children.failures, probes);
        return children.failures.isEmpty() && reported ? 0 : 1;
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
            children.fail(bench, impl, procs, "the server did not start: " + e.getMessage(), List.of(), new ArrayDeque<>());
            return;
        }
        try (servers) {
            List<String> cmd = clientCommand(launcher, bench, impl, procs, reps, Integer.toString(servers.port()));
            if (servers.cpuPid() > 0) {
                cmd.addAll(List.of("--server-pid", Long.toString(servers.cpuPid())));
            }
            children.run(bench, impl, procs, cmd, Map.of());
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
                    children.fail(bench, impl, procs, "the server did not start: " + e.getMessage(), List.of(), new ArrayDeque<>());
                    return;
                }
            }
            List<String> cmd = clientCommand(launcher, bench, all, procs, reps,
                    servers.stream().map(c -> Integer.toString(c.port())).collect(Collectors.joining(",")));
            cmd.addAll(List.of("--server-pid", servers.stream().map(c -> Long.toString(c.cpuPid()))
                    .collect(Collectors.joining(","))));
            children.run(bench, all, procs, cmd, Map.of());
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

    // =====================================================================================
    // Reporting
    // =====================================================================================

    /** The end of a run on the console: with --rounds N > 1 the rounds' medians, then {@link ConsoleReport}. */
    private void report() {
        if (opt.rounds > 1) {
            List<Result> merged = ChildRunner.mergeRounds(children.results);
            children.results.clear();
            children.results.addAll(merged);
            for (Result r : children.results) {
                System.err.println("gmp4j bench: " + r.bench() + " " + r.impl() + " procs=" + r.procs() + ": "
                        + BenchChild.fmt(r.value()) + " " + r.unit() + " (median of " + opt.rounds + " rounds: "
                        + r.samples() + ")");
                if (opt.json) {
                    ChildRunner.printJson(r, opt.pin);
                }
            }
        }
        new ConsoleReport(opt, children.results, children.failures, probes).print();
    }

    // =====================================================================================
    // Helpers
    // =====================================================================================

    /** Says on stderr what the run skips or adjusts (not a failure). */
    static void note(String msg) {
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
}
