package io.gmp4j.bench.net;

import io.gmp4j.bench.BenchChild;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * The load client in its own process, the same for every server:
 * <pre>
 * LoadClient &lt;bench&gt; &lt;impl&gt; &lt;procs&gt; &lt;warmup+measured&gt; &lt;port&gt; [--window-ms N] [--server-pid PID] [--loops N]
 * </pre>
 * It loads 127.0.0.1:port as {@link NetBench#run} says for {@code bench}, with
 * {@code warmup} windows thrown away and {@code measured} windows of {@code --window-ms}
 * (default 1000) reported, and prints one {@code @result} line per figure, labelled with the
 * server's {@code impl} and {@code procs}. {@code --server-pid} adds the server's CPU time
 * figures; {@code --loops} is the client's event-loop threads (default 2, at most one per
 * connection). For a benchmark whose servers take turns ({@link NetBench#takesTurns}),
 * {@code impl}, {@code port} and {@code --server-pid} are comma-separated lists, one entry per
 * server, and the result lines carry each server's impl. Exits 1 when the accounting fails, 3
 * when its watchdog ({@code -Dgmp4j.bench.timeout}, seconds) fires.
 */
public final class LoadClient {
    private LoadClient() {
    }

    public static void main(String[] args) {
        try {
            run(args);
        } catch (IllegalArgumentException e) {
            System.err.println("LoadClient: " + e.getMessage());
            System.exit(2);
        } catch (Throwable t) {
            System.err.println("LoadClient " + String.join(" ", args) + " FAILED: " + t);
            t.printStackTrace();
            System.err.flush();
            System.exit(1);
        }
        System.exit(0);
    }

    private static void run(String[] args) {
        if (args.length < 5) {
            throw new IllegalArgumentException("usage: LoadClient <bench> <impl> <procs> <warmup+measured> <port>"
                    + " [--window-ms N] [--server-pid PID] [--loops N]");
        }
        String bench = args[0];
        String impl = args[1];
        int procs = Integer.parseInt(args[2]);
        int[] reps = BenchChild.parseReps(args[3]);
        String ports = args[4];
        long windowMs = 1000;
        String pids = "0";
        int loops = 2;
        for (int i = 5; i < args.length; i++) {
            if (i + 1 >= args.length) {
                throw new IllegalArgumentException(args[i] + " needs a value");
            }
            switch (args[i]) {
                case "--window-ms" -> windowMs = Long.parseLong(args[++i]);
                case "--server-pid" -> pids = args[++i];
                case "--loops" -> loops = Integer.parseInt(args[++i]);
                default -> throw new IllegalArgumentException("unknown option '" + args[i] + "'");
            }
        }
        startWatchdog(Long.getLong("gmp4j.bench.timeout", 600));
        if (NetBench.takesTurns(bench)) {
            runTurns(bench, impl, procs, reps, ports, pids, windowMs, loops);
            return;
        }
        int port = Integer.parseInt(ports);
        long pid = Long.parseLong(pids);
        WindowPlan plan = new WindowPlan(reps[0], reps[1], windowMs, pid);
        System.err.println("LoadClient: " + bench + " against " + impl + " procs=" + procs + " on port " + port
                + ", " + reps[0] + "+" + reps[1] + " windows of " + windowMs + " ms, " + loops + " client loop(s)");
        List<Figure> figures = NetBench.run(bench, new InetSocketAddress("127.0.0.1", port), plan, loops);
        for (Figure f : figures) {
            BenchChild.printResult(f.bench(), impl, procs, f.samples(), f.unit());
        }
    }

    /** The servers of a benchmark that takes turns: one entry per server in each list. */
    private static void runTurns(String bench, String impls, int procs, int[] reps, String ports, String pids,
                                 long windowMs, int loops) {
        List<String> implList = List.of(impls.split(","));
        List<InetSocketAddress> servers = new ArrayList<>();
        for (String p : ports.split(",")) {
            servers.add(new InetSocketAddress("127.0.0.1", Integer.parseInt(p)));
        }
        List<Long> pidList = new ArrayList<>();
        for (String p : pids.split(",")) {
            pidList.add(Long.parseLong(p));
        }
        if (servers.size() != implList.size() || pidList.size() != implList.size()) {
            throw new IllegalArgumentException(bench + " needs one port and one --server-pid per impl: " + impls
                    + " / " + ports + " / " + pids);
        }
        System.err.println("LoadClient: " + bench + " against " + impls + " procs=" + procs + " on ports " + ports
                + ", in turns, " + reps[0] + "+" + reps[1] + " windows of " + windowMs + " ms each, " + loops
                + " client loop(s)");
        List<List<Figure>> figures = NetBench.runTurns(bench, servers, pidList,
                new WindowPlan(reps[0], reps[1], windowMs, 0), loops);
        for (int s = 0; s < implList.size(); s++) {
            for (Figure f : figures.get(s)) {
                BenchChild.printResult(f.bench(), implList.get(s), procs, f.samples(), f.unit());
            }
        }
    }

    private static void startWatchdog(long seconds) {
        io.gmp4j.bench.ChildJvm.startWatchdog("LoadClient", seconds);
    }
}
