package io.gmp4j.bench;

import io.gmp4j.bench.net.LoadClient;
import io.gmp4j.runtime.events.Settings;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * What recording the scheduler's JFR events with their defaults costs, measured in one run:
 * {@code pingpong} (a child JVM per run, recording off and on alternating, the order flipped
 * each round) and {@code echo-turns-c16} (two gmp4j echo servers at once, one recording, loaded
 * in turns window by window by one client, so both see the same machine). Recording is
 * {@code -XX:StartFlightRecording:settings=default,settings=<gmp4j.jfc>}: the JDK's default events plus
 * the scheduler's defaults, what a user who turns JFR on gets.
 *
 * <pre>
 * java $FLAGS -cp &lt;benchmarks classpath&gt; io.gmp4j.bench.JfrOverhead [--rounds N] [--procs 1,2]
 *      [--echo-rounds N] [--echo-procs 2] [--settings FILE.jfc]
 * </pre>
 * Prints each round's figures and, per benchmark and variant, the median and its cost against
 * {@code off} and against {@code jfr-empty} (time: v/off - 1; throughput: 1 - v/off).
 */
public final class JfrOverhead {
    private final String java = System.getProperty("gmp4j.java", Path.of(System.getProperty("java.home"), "bin", "java").toString());
    private final List<String> jvmFlags = BenchMain.split(System.getProperty("gmp4j.jvmFlags", BenchMain.DEFAULT_JVM_FLAGS));
    private final String cp = System.getProperty("java.class.path");
    private final Path dir;
    /** The variants, by name: the child JVM flags each adds. */
    private final Map<String, List<String>> variants = new LinkedHashMap<>();

    private JfrOverhead(Path dir, Path settings, Path empty) {
        this.dir = dir;
        variants.put("off", List.of());
        // JFR on with no event at all: the JDK's own cost of a recording (virtual thread mounts)
        variants.put("jfr-empty", List.of("-XX:StartFlightRecording:settings=" + empty + ",filename=" + dir.resolve("empty.jfr")));
        variants.put("jfr-gmp4j", List.of("-XX:StartFlightRecording:settings=" + settings + ",filename=" + dir.resolve("gmp4j.jfr")));
        variants.put("jfr-default+gmp4j", List.of("-XX:StartFlightRecording:settings=default,settings=" + settings
                + ",filename=" + dir.resolve("default.jfr")));
    }

    public static void main(String[] args) throws Exception {
        int rounds = 5;
        int echoRounds = 3;
        List<Integer> procs = List.of(1, 2);
        List<Integer> echoProcs = List.of(2);
        Path settings = null;
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (i + 1 >= args.length) {
                usage(a + " needs a value");
            }
            switch (a) {
                case "--rounds" -> rounds = Integer.parseInt(args[++i]);
                case "--echo-rounds" -> echoRounds = Integer.parseInt(args[++i]);
                case "--procs" -> procs = ints(args[++i]);
                case "--echo-procs" -> echoProcs = ints(args[++i]);
                case "--settings" -> settings = Path.of(args[++i]).toAbsolutePath();
                default -> usage("unknown option " + a);
            }
        }
        Path dir = Files.createTempDirectory("gmp4j-jfr-overhead");
        if (settings == null) {
            settings = Files.writeString(dir.resolve("gmp4j.jfc"), Settings.text(Settings.DEFAULT));
        }
        Path empty = Files.writeString(dir.resolve("empty.jfc"),
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<configuration version=\"2.0\" label=\"empty\"></configuration>\n");
        new JfrOverhead(dir, settings, empty).run(rounds, procs, echoRounds, echoProcs);
    }

    private static List<Integer> ints(String s) {
        List<Integer> out = new ArrayList<>();
        for (String t : s.split(",")) {
            out.add(Integer.parseInt(t.trim()));
        }
        return out;
    }

    private static void usage(String why) {
        System.err.println("JfrOverhead: " + why + "\nusage: JfrOverhead [--rounds N] [--procs 1,2] [--echo-rounds N] [--echo-procs 2] [--settings FILE.jfc]");
        System.exit(2);
    }

    private void run(int rounds, List<Integer> procs, int echoRounds, List<Integer> echoProcs) throws Exception {
        // figure name -> "off"/"on" -> values by round
        Map<String, Map<String, List<Double>>> figures = new TreeMap<>();
        Map<String, String> units = new TreeMap<>();
        for (int p : procs) {
            for (int r = 0; r < rounds; r++) {
                for (String v : order(r)) {
                    List<String> cmd = ChildRunner.childJvm(java, jvmFlags, "gmp4j", p, variants.get(v));
                    cmd.addAll(List.of("-Dgmp4j.bench.timeout=600", "-Dgmp4j.bench.minWarmupMs=2000",
                            "-Dgmp4j.bench.minMeasureMs=1000", "-cp", cp, BenchChild.class.getName(),
                            "pingpong", "gmp4j", Integer.toString(p), "3+5"));
                    for (ChildRunner.Result res : runChild(cmd)) {
                        add(figures, units, res, v, r);
                    }
                }
            }
        }
        for (int p : echoProcs) {
            for (int r = 0; r < echoRounds; r++) {
                // every variant's server at once, in this round's order, loaded in turns
                List<String> names = order(r);
                List<ServerChain> servers = new ArrayList<>();
                try {
                    for (String v : names) {
                        servers.add(ServerChain.start(new ServerLauncher(java, jvmFlags, variants.get(v), cp, null),
                                "echo-turns-c16", "gmp4j", p));
                    }
                    List<String> cmd = new ArrayList<>();
                    cmd.add(java);
                    cmd.addAll(jvmFlags);
                    cmd.addAll(BenchMain.CLIENT_JVM_FLAGS);
                    cmd.add("-Dgmp4j.bench.timeout=600");
                    cmd.addAll(List.of("-cp", cp, LoadClient.class.getName(), "echo-turns-c16", String.join(",", names),
                            Integer.toString(p), BenchOptions.NET_WARMUP_WINDOWS + "+5",
                            String.join(",", servers.stream().map(c -> Integer.toString(c.port())).toList()),
                            "--window-ms", "1000", "--loops", "2", "--server-pid",
                            String.join(",", servers.stream().map(c -> Long.toString(c.cpuPid())).toList())));
                    for (ChildRunner.Result res : runChild(cmd)) {
                        add(figures, units, res, res.impl(), r);
                    }
                } finally {
                    servers.forEach(ServerChain::close);
                }
            }
        }
        System.out.println();
        System.out.println("JFR cost, medians of the rounds' figures; cost against off, and (in brackets) against jfr-empty,"
                + " the JDK's own cost of a recording with no event enabled:");
        for (Map.Entry<String, Map<String, List<Double>>> e : figures.entrySet()) {
            List<Double> off = e.getValue().getOrDefault("off", List.of());
            List<Double> empty = e.getValue().getOrDefault("jfr-empty", List.of());
            if (off.isEmpty()) {
                continue;
            }
            String unit = units.get(e.getKey());
            boolean higherBetter = BenchMain.HIGHER_IS_BETTER.contains(unit);
            double mOff = BenchChild.median(off);
            System.out.println("  " + e.getKey() + " (" + unit + "): off " + BenchChild.fmt(mOff) + " (" + fmtAll(off) + ")");
            for (String v : variants.keySet()) {
                List<Double> vals = e.getValue().getOrDefault(v, List.of());
                if (v.equals("off") || vals.isEmpty()) {
                    continue;
                }
                double m = BenchChild.median(vals);
                double cost = higherBetter ? 1 - m / mOff : m / mOff - 1;
                String vsEmpty = "";
                if (!v.equals("jfr-empty") && !empty.isEmpty()) {
                    double mE = BenchChild.median(empty);
                    vsEmpty = String.format(Locale.ROOT, " [%+.1f%%]", 100 * (higherBetter ? 1 - m / mE : m / mE - 1));
                }
                System.out.println(String.format(Locale.ROOT, "    %-18s %s  cost %+.1f%%%s  (%s)", v, BenchChild.fmt(m),
                        100 * cost, vsEmpty, fmtAll(vals)));
            }
        }
    }

    /** Round {@code r}'s order of the variants: rotated by one each round, so none is always first. */
    private List<String> order(int r) {
        List<String> names = new ArrayList<>(variants.keySet());
        Collections.rotate(names, -r);
        return names;
    }

    private static String fmtAll(List<Double> v) {
        List<String> s = new ArrayList<>();
        for (double d : v) {
            s.add(BenchChild.fmt(d));
        }
        return String.join(" ", s);
    }

    private static void add(Map<String, Map<String, List<Double>>> figures, Map<String, String> units,
                            ChildRunner.Result res, String variant, int round) {
        String key = res.bench() + " p" + res.procs();
        figures.computeIfAbsent(key, k -> new TreeMap<>()).computeIfAbsent(variant, k -> new ArrayList<>()).add(res.value());
        units.put(key, res.unit());
        System.out.println("round " + round + " " + key + " " + variant + ": " + BenchChild.fmt(res.value()) + " " + res.unit());
    }

    /** Runs a child to its end; its stderr goes to ours, its result lines come back. */
    private List<ChildRunner.Result> runChild(List<String> cmd) throws IOException, InterruptedException {
        System.err.println("JfrOverhead: " + String.join(" ", cmd));
        Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.INHERIT).directory(dir.toFile()).start();
        p.getOutputStream().close();
        List<ChildRunner.Result> out = new ArrayList<>();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                if (line.startsWith(BenchChild.RESULT_PREFIX)) {
                    out.add(ChildRunner.parseResult(line));
                }
            }
        }
        int rc = p.waitFor();
        if (rc != 0 || out.isEmpty()) {
            throw new IOException("child exited " + rc + " with " + out.size() + " result(s): " + String.join(" ", cmd));
        }
        return out;
    }
}
