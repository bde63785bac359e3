package io.gmp4j.bench.remote;

import java.util.List;

/**
 * The remote benchmarks: two JVMs on loopback, the driver ({@link RemoteDriver}, the child
 * {@code BenchMain} forks) and a peer ({@link RemotePeer}) that the driver starts, each an actor
 * system joined to the other: gmp4j with {@code ClusterNode.join} (names by register/lookup),
 * Pekko with Artery remoting over TCP (names by actor selection). Implementations {@code gmp4j}
 * and {@code pekko}; each runs once per invocation, at the largest {@code --procs} (gmp4j's
 * GOMAXPROCS; Pekko keeps its default dispatcher).
 *
 * <ul>
 *   <li>{@code remote-pingpong}: one message back and forth, the next sent when the answer
 *       arrives; figure the mean ns per round trip, with {@code -p50} and {@code -p99}.</li>
 *   <li>{@code remote-throughput-1}, {@code remote-throughput-10}: one or ten sender actors on
 *       the driver, one receiver actor on the peer, one way, in {@link FlowControl}'s credit
 *       windows; figure msg/s: the run's messages, counted exactly by the receiver, over the time
 *       from the start to the receiver's report that all arrived.</li>
 *   <li>{@code remote-kill-detect}: the peer's JVM killed with SIGKILL
 *       ({@code Process.destroyForcibly}) while an actor on the driver watches an actor there
 *       (gmp4j {@code ctx.watch}, Pekko {@code context.watch}), default failure detection;
 *       figure ms from the kill to the watcher's {@code Terminated}. A fresh peer per sample.</li>
 * </ul>
 * Each also reports {@code <bench>-cpu-sender} and {@code <bench>-cpu-receiver}: the CPU time of
 * the driver's JVM and of the peer's JVM during the run, per message (per round trip).
 */
public final class RemoteBench {
    /** The benchmark names. */
    public static final List<String> BENCHES = List.of("remote-pingpong", "remote-throughput-1",
            "remote-throughput-10", "remote-kill-detect");
    /** The implementations they run. */
    public static final List<String> IMPLS = List.of("gmp4j", "pekko");

    /**
     * The access Hazelcast asks for (it warns at start-up without it): the driver's JVM gets
     * them from BenchMain, the peer's from the driver (it runs with the driver's JVM flags).
     */
    public static final List<String> JVM_FLAGS = List.of("--add-modules", "java.se",
            "--add-exports", "java.base/jdk.internal.ref=ALL-UNNAMED",
            "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED",
            "--add-opens", "java.management/sun.management=ALL-UNNAMED",
            "--add-opens", "jdk.management/com.sun.management.internal=ALL-UNNAMED");

    static final int PINGPONG_N = 5_000;
    static final int PINGPONG_N_QUICK = 1_000;
    static final int THROUGHPUT_N = 100_000;
    static final int THROUGHPUT_N_QUICK = 10_000;

    private RemoteBench() {
    }

    /** Whether {@code bench} is a remote benchmark. */
    public static boolean isRemote(String bench) {
        return BENCHES.contains(bench);
    }

    /**
     * The repetitions {@code W+M} of {@code bench} when none were asked for: kill-detect has no
     * warm-up and 3 kills (quick: 1), the others 5+5 runs (quick: 1+3). Five warm-up runs: with
     * two, Pekko's msg/s still rose from each measured run to the next (see
     * benchmarks/PERFORMANCE-LOG.md).
     */
    public static String reps(String bench, boolean quick) {
        if (bench.equals("remote-kill-detect")) {
            return quick ? "0+1" : "0+3";
        }
        return quick ? "1+3" : "5+5";
    }

    /** The messages (round trips) of one run of {@code bench}. */
    static long size(String bench, boolean quick) {
        return switch (bench) {
            case "remote-pingpong" -> quick ? PINGPONG_N_QUICK : PINGPONG_N;
            case "remote-throughput-1", "remote-throughput-10" -> quick ? THROUGHPUT_N_QUICK : THROUGHPUT_N;
            case "remote-kill-detect" -> 1;
            default -> throw new IllegalArgumentException("not a remote benchmark: '" + bench + "'");
        };
    }

    /** The senders of a throughput benchmark. */
    static int senders(String bench) {
        return switch (bench) {
            case "remote-throughput-1" -> 1;
            case "remote-throughput-10" -> 10;
            default -> throw new IllegalArgumentException("not a throughput benchmark: '" + bench + "'");
        };
    }
}
