package io.gmp4j.bench;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * The benchmark children of one run, started one at a time, and what they said: every figure a
 * child printed on a {@code @result} line is in {@link #results}, every child that did not give
 * its figures (it could not start, failed, timed out, printed none) is in {@link #failures} and
 * on stderr with its command and last output lines; with {@code --json} each figure or failure is
 * also a JSON line on stdout. Also what every process the harness starts shares: a child JVM's
 * command line ({@link #childJvm}), the readers of its output ({@link #pump}, {@link #keep}) and
 * the result line's parser ({@link #parseResult}).
 */
final class ChildRunner {
    /** One figure a child reported. */
    record Result(String bench, String impl, int procs, double value, String unit, String samples) {
    }

    /** A child that did not produce its figures. */
    record Failure(String bench, String impl, int procs, String message) {
    }

    private final BenchOptions opt;
    /** The figures, in the order the children printed them. */
    final List<Result> results = new ArrayList<>();
    /** The runs that gave no figures (children, and the Go build: {@link GoBinary}), in order. */
    final List<Failure> failures = new ArrayList<>();

    ChildRunner(BenchOptions opt) {
        this.opt = opt;
    }

    /**
     * A child JVM's command up to its classpath: the JVM flags, {@link BenchMain#CHILD_JVM_FLAGS},
     * the implementation's procs knob, the extra child flags.
     */
    static List<String> childJvm(String java, List<String> jvmFlags, String impl, int procs,
                                         List<String> childFlags) {
        List<String> cmd = new ArrayList<>();
        cmd.add(java);
        cmd.addAll(jvmFlags);
        cmd.addAll(BenchMain.CHILD_JVM_FLAGS);
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
     * Runs one child to its end (killed {@code --timeout} + 60 s after its start) and takes its
     * figures, or records why there are none.
     */
    void run(String bench, String impl, int procs, List<String> cmd, Map<String, String> env) {
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
                BenchMain.note("child for " + impl + " procs=" + procs + " reported impl=" + r.impl() + " procs=" + r.procs());
            }
            results.add(r);
            System.err.println("gmp4j bench:   " + r.bench() + " " + r.impl() + " procs=" + r.procs() + ": "
                    + BenchChild.fmt(r.value()) + " " + r.unit() + " (samples " + r.samples() + ")");
            if (opt.json && opt.rounds == 1) {
                printJson(r, opt.pin);
            }
        }
    }

    static void printJson(Result r, boolean pinned) {
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

    /** Records that a child gave no figures, saying why on stderr (and with --json on stdout). */
    void fail(String bench, String impl, int procs, String message, List<String> cmd, Deque<String> tail) {
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

    private static String jsonEscape(String s) {
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
