package io.gmp4j.bench;

import io.gmp4j.bench.ChildRunner.Failure;
import io.gmp4j.bench.ChildRunner.Result;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A finished run on the console: the table of figures (not with {@code --json}), one row a
 * (bench, procs) in the order the figures came and one column an implementation, with the
 * machine readings under it; the ratio lines (gmp4j against each other implementation, above 1
 * when gmp4j is better; the goroutine registry's cost; each implementation's speed-up from
 * procs 1), as JSON lines with {@code --json}; and the list of failed runs on stderr.
 */
final class ConsoleReport {
    private final BenchOptions opt;
    private final List<Result> results;
    private final List<Failure> failures;
    /** The machine readings, in order: ("start", reading), ("end", reading). */
    private final List<Map.Entry<String, MachineProbe.Reading>> probes;

    ConsoleReport(BenchOptions opt, List<Result> results, List<Failure> failures,
                  List<Map.Entry<String, MachineProbe.Reading>> probes) {
        this.opt = opt;
        this.results = results;
        this.failures = failures;
        this.probes = probes;
    }

    /** Prints the table (unless --json), the ratio lines and the failures. */
    void print() {
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
        for (String i : BenchMain.IMPLS) {
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
                if (BenchMain.HIGHER_IS_BETTER.contains(g.unit())) {
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
            for (String impl : BenchMain.IMPLS) {
                Result one = find(bench, impl, 1);
                if (one == null) {
                    continue;
                }
                for (int procs : opt.procs) {
                    Result r = find(bench, impl, procs);
                    if (procs == 1 || r == null) {
                        continue;
                    }
                    boolean more = BenchMain.HIGHER_IS_BETTER.contains(r.unit());
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
}
