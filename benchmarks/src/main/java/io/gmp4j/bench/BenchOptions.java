package io.gmp4j.bench;

import io.gmp4j.bench.net.NetBench;
import io.gmp4j.bench.remote.RemoteBench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The command line of {@link BenchMain}: its options as parsed ({@link #parse}), the usage text
 * ({@link #usage}), and what each option comes to when it is not given (repetitions, time
 * floors, windows). Bad input is an {@link IllegalArgumentException} whose message names the
 * option; {@code parse} returns null for a request for help.
 */
final class BenchOptions {
    final List<String> benches = new ArrayList<>();
    final List<String> impls = new ArrayList<>(BenchMain.IMPLS);
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

    /** Warm-up windows of a network benchmark unless --warmup or --quick says otherwise. */
    static final int NET_WARMUP_WINDOWS = 20;

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
                            hog agent-cost (loop preemption at procs 1: gmp4j, gmp4j-agent; hog also gmp4j-none
                            and go, agent-cost also gmp4j-agent-checked)
                            (default: all)
                  --procs   GOMAXPROCS / scheduler parallelism values (default 1,2); floor runs at 1 only;
                            fib-paired runs 1 and the largest value (at least 2) in one process
                  --impls   implementations (default all; go only when a `go` binary is on PATH and not for
                            savina-*, fib-paired, agent-cost or remote-*; jox only for the channel benchmarks, pekko only for savina-* and remote-*, jdk not for
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

    static BenchOptions parse(String[] args) {
        BenchOptions o = new BenchOptions();
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
                        if (!BenchMain.IMPLS.contains(s.trim())) {
                            throw new IllegalArgumentException("unknown impl '" + s + "' (known: " + BenchMain.IMPLS + ")");
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
                    } else if (!BenchMain.BENCHES.contains(a)) {
                        throw new IllegalArgumentException("unknown benchmark '" + a + "' (known: " + BenchMain.BENCHES + ")");
                    } else if (!o.benches.contains(a)) {
                        o.benches.add(a);
                    }
                }
            }
        }
        if (o.benches.isEmpty()) {
            o.benches.addAll(BenchMain.BENCHES);
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
}
