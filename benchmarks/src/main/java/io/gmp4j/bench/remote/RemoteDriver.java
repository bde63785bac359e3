package io.gmp4j.bench.remote;

import io.gmp4j.bench.BenchChild;
import io.gmp4j.bench.Reps;
import io.gmp4j.bench.net.Figure;
import io.gmp4j.bench.net.ProcessCpu;
import io.gmp4j.bench.remote.RemoteMsgs.Done;
import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The driver of one remote benchmark for one implementation, the child JVM that
 * {@code BenchMain} forks: {@code RemoteDriver <bench> <impl> <procs> <warmup+measured>}. It
 * joins its own node, starts the peer ({@link PeerProcess}), runs the repetitions and prints
 * {@code @result} lines ({@link BenchChild#printResult}); exits 1 on any failure (a count that is
 * not exact included) and 3 when its watchdog ({@code -Dgmp4j.bench.timeout}, seconds) fires.
 * {@code -Dgmp4j.bench.quick=true} runs the smaller sizes of {@link RemoteBench#size}.
 */
public final class RemoteDriver {
    /** How long one run, or one set-up step, may take. */
    static final Duration RUN_TIMEOUT = Duration.ofSeconds(120);
    /** How long the watcher may wait for Terminated after the kill. */
    static final Duration KILL_TIMEOUT = Duration.ofSeconds(90);
    /**
     * How long a watch stands before the kill: Pekko's remote watcher heartbeats once a second
     * and starts its failure detector at the first answer; two seconds give both
     * implementations' detectors a steady state to start from. A measurement condition, not
     * a synchronisation: the round trip after the watch is what shows the watch went out.
     */
    static final long SETTLE_MS = 2000;

    /**
     * The figures of a run and, per repetition, what the receiving side counted: the round
     * trips answered in order, the messages the receiver got, or 1 per Terminated.
     */
    public record Outcome(List<Figure> figures, List<Long> counted) {
    }

    private RemoteDriver() {
    }

    public static void main(String[] args) {
        if (args.length != 4) {
            System.err.println("usage: RemoteDriver <bench> <impl> <procs> <warmup+measured>");
            System.exit(2);
        }
        try {
            String bench = args[0];
            String impl = args[1];
            int procs = Integer.parseInt(args[2]);
            int[] reps = BenchChild.parseReps(args[3]);
            startWatchdog(String.join(" ", args), Long.getLong("gmp4j.bench.timeout", 600));
            long size = RemoteBench.size(bench, Boolean.getBoolean("gmp4j.bench.quick"));
            Outcome o = run(bench, impl, reps[0], reps[1], size);
            for (Figure f : o.figures()) {
                BenchChild.printResult(f.bench(), impl, procs, f.samples(), f.unit());
            }
        } catch (Throwable t) {
            System.err.println("RemoteDriver " + String.join(" ", args) + " FAILED: " + t);
            t.printStackTrace();
            System.err.flush();
            System.exit(1);
        }
        System.exit(0);
    }

    /**
     * Runs {@code bench} for {@code impl}: {@code warmup} and {@code measured} repetitions (time
     * floors as {@link Reps#of}; kill-detect: {@code measured} kills, no warm-up) of {@code size}
     * messages (round trips).
     *
     * @throws IllegalStateException when a count is not exact or a step times out
     */
    public static Outcome run(String bench, String impl, int warmup, int measured, long size) throws Exception {
        if (!RemoteBench.isRemote(bench)) {
            throw new IllegalArgumentException("not a remote benchmark: '" + bench + "'");
        }
        if (!RemoteBench.IMPLS.contains(impl)) {
            throw new IllegalArgumentException("unknown impl '" + impl + "' for " + bench + " " + RemoteBench.IMPLS);
        }
        if (bench.equals("remote-kill-detect")) {
            return killDetect(bench, impl, measured);
        }
        String label = "[" + bench + " " + impl + " peer] ";
        try (RemoteSide side = open(impl); PeerProcess peer = PeerProcess.start(impl, side.peerArgs(), label)) {
            side.connect(peer.info());
            return runOn(bench, side, peer, warmup, measured, size);
        }
    }

    /** Runs {@code bench} (not kill-detect) on {@code side}, connected to {@code peer}. */
    static Outcome runOn(String bench, RemoteSide side, PeerProcess peer, int warmup, int measured, long size)
            throws Exception {
        if (size < 1 || size > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(bench + ": size out of range: " + size);
        }
        return switch (bench) {
            case "remote-pingpong" -> pingpong(bench, side, peer, warmup, measured, (int) size);
            case "remote-throughput-1", "remote-throughput-10" -> throughput(bench, side, peer, warmup, measured, size);
            default -> throw new IllegalArgumentException("not a remote benchmark with one peer: '" + bench + "'");
        };
    }

    /** A fresh driver side of {@code impl}: its own actor system, joined. */
    static RemoteSide open(String impl) {
        return impl.equals("gmp4j") ? new Gmp4jRemote() : new PekkoRemote();
    }

    private static Outcome pingpong(String bench, RemoteSide side, PeerProcess peer, int warmup, int measured, int n)
            throws Exception {
        Cpu cpu = new Cpu(peer.pid());
        List<Double> mean = new ArrayList<>();
        List<Double> p50 = new ArrayList<>();
        List<Double> p99 = new ArrayList<>();
        List<Double> cpuSender = new ArrayList<>();
        List<Double> cpuReceiver = new ArrayList<>();
        List<Long> counted = new ArrayList<>();
        for (Reps rep = Reps.of(warmup, measured); rep.next(); ) {
            cpu.start();
            long[] rtt = side.pingpong(n, RUN_TIMEOUT);
            cpu.stop();
            if (rtt.length != n) {
                throw new IllegalStateException(bench + ": " + rtt.length + " round trips of " + n);
            }
            if (!rep.measuring()) {
                continue;
            }
            counted.add((long) rtt.length);
            long sum = 0;
            for (long t : rtt) {
                sum += t;
            }
            long[] sorted = rtt.clone();
            Arrays.sort(sorted);
            mean.add(sum / (double) n);
            p50.add((double) sorted[(int) Math.min(n - 1, Math.ceil(0.50 * n) - 1)]);
            p99.add((double) sorted[(int) Math.min(n - 1, Math.ceil(0.99 * n) - 1)]);
            cpuSender.add(cpu.driverNanos() / (double) n);
            cpuReceiver.add(cpu.peerNanos() / (double) n);
        }
        return new Outcome(List.of(new Figure(bench, "ns/op", mean), new Figure(bench + "-p50", "ns/op", p50),
                new Figure(bench + "-p99", "ns/op", p99), new Figure(bench + "-cpu-sender", "ns/op", cpuSender),
                new Figure(bench + "-cpu-receiver", "ns/op", cpuReceiver)), counted);
    }

    private static Outcome throughput(String bench, RemoteSide side, PeerProcess peer, int warmup, int measured, long size)
            throws Exception {
        int senders = RemoteBench.senders(bench);
        long total = size - size % senders;
        Cpu cpu = new Cpu(peer.pid());
        List<Double> rate = new ArrayList<>();
        List<Double> cpuSender = new ArrayList<>();
        List<Double> cpuReceiver = new ArrayList<>();
        List<Long> counted = new ArrayList<>();
        for (Reps rep = Reps.of(warmup, measured); rep.next(); ) {
            cpu.start();
            long t0 = System.nanoTime();
            Done done = side.throughput(senders, total, RUN_TIMEOUT);
            long ns = System.nanoTime() - t0;
            cpu.stop();
            if (done.received() != total || done.errors() != 0) {
                throw new IllegalStateException(bench + ": the receiver counted " + done.received() + " of " + total
                        + " messages, " + done.errors() + " out of their sender's sequence");
            }
            if (!rep.measuring()) {
                continue;
            }
            counted.add(done.received());
            rate.add(total / (ns / 1e9));
            cpuSender.add(cpu.driverNanos() / (double) total);
            cpuReceiver.add(cpu.peerNanos() / (double) total);
        }
        return new Outcome(List.of(new Figure(bench, "msg/s", rate), new Figure(bench + "-cpu-sender", "ns/op", cpuSender),
                new Figure(bench + "-cpu-receiver", "ns/op", cpuReceiver)), counted);
    }

    /**
     * {@code kills} samples, each with a fresh driver node and a fresh peer: the watcher watches
     * the peer's ponger, one round trip, {@link #SETTLE_MS}, SIGKILL, and the time until the
     * watcher's Terminated.
     */
    private static Outcome killDetect(String bench, String impl, int kills) throws Exception {
        List<Double> ms = new ArrayList<>();
        List<Long> counted = new ArrayList<>();
        for (int i = 0; i < kills; i++) {
            String label = "[" + bench + " " + impl + " peer " + (i + 1) + "] ";
            try (RemoteSide side = open(impl); PeerProcess peer = PeerProcess.start(impl, side.peerArgs(), label)) {
                side.connect(peer.info());
                BlockingQueue<RemoteSide.Terminal> died = side.watchPonger(RUN_TIMEOUT);
                Thread.sleep(SETTLE_MS);
                long t0 = peer.kill();
                RemoteSide.Terminal t = died.poll(KILL_TIMEOUT.toMillis(), TimeUnit.MILLISECONDS);
                if (t == null) {
                    throw new IllegalStateException(bench + " " + impl + ": no Terminated within "
                            + KILL_TIMEOUT.toSeconds() + " s of SIGKILL");
                }
                peer.awaitExit();
                double d = (t.nanos() - t0) / 1e6;
                System.err.println(bench + " " + impl + ": Terminated " + String.format(java.util.Locale.ROOT, "%.1f", d) + " ms after SIGKILL: " + t.reason());
                ms.add(d);
                counted.add(1L);
            }
        }
        return new Outcome(List.of(new Figure(bench, "ms", ms)), counted);
    }

    /** CPU time of the driver's JVM and of the peer's, between {@link #start} and {@link #stop}. */
    private static final class Cpu {
        private final com.sun.management.OperatingSystemMXBean os =
                (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
        private final ProcessCpu peer;
        private long driver0;
        private long peer0;
        private long driverNanos;
        private long peerNanos;

        Cpu(long peerPid) {
            this.peer = ProcessCpu.of(peerPid);
        }

        void start() {
            driver0 = os.getProcessCpuTime();
            peer0 = peer.nanos();
        }

        void stop() {
            driverNanos = os.getProcessCpuTime() - driver0;
            peerNanos = peer.nanos() - peer0;
        }

        long driverNanos() {
            return driverNanos;
        }

        /** In clock ticks' resolution (/proc: 10 ms at 100 Hz). */
        long peerNanos() {
            return peerNanos;
        }
    }

    private static void startWatchdog(String what, long seconds) {
        io.gmp4j.bench.ChildJvm.startWatchdog("RemoteDriver " + what, seconds);
    }
}
