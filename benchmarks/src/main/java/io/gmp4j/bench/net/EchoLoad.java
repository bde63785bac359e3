package io.gmp4j.bench.net;

import org.HdrHistogram.Histogram;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The echo load: {@code connections} connections, each a closed loop of {@value #REQUEST}-byte
 * requests answered by the same bytes ({@link EchoConnection}). Per measured window it
 * reports requests per second, the 99th-percentile round trip in microseconds and, when the
 * server's pid is known, the server's CPU time per request in microseconds. At the end every
 * connection finishes its request in flight and the counts must agree: every request sent was
 * answered, byte for byte.
 *
 * @param server      the echo server
 * @param connections how many connections (1, 16, 256 in the benchmarks)
 * @param loops       the client's event-loop threads
 */
public record EchoLoad(InetSocketAddress server, int connections, int loops) {
    /** Request (and answer) size in bytes. */
    public static final int REQUEST = 64;
    private static final long FINISH_TIMEOUT_S = 30;

    public EchoLoad {
        if (connections < 1 || loops < 1) {
            throw new IllegalArgumentException("connections and loops must be >= 1");
        }
    }

    /** What a run measured and counted. */
    public record Outcome(List<Figure> figures, long requests, long answers) {
    }

    /** Runs the load for {@code plan}'s windows; figures are named {@code <prefix>}, {@code <prefix>-p99}, {@code <prefix>-cpu}. */
    public Outcome run(WindowPlan plan, String prefix) {
        FirstError errors = new FirstError();
        CountDownLatch primed = new CountDownLatch(connections);
        CountDownLatch finished = new CountDownLatch(connections);
        List<EchoConnection> conns = new ArrayList<>();
        for (int i = 0; i < connections; i++) {
            conns.add(new EchoConnection(i, errors, primed, finished));
        }
        try (ClientConnections cc = new ClientConnections(loops)) {
            cc.connect(server, conns, 64 * 1024);
            errors.await(primed, "every echo connection got its first answer", FINISH_TIMEOUT_S);
            List<WindowPlan.Window<Histogram>> windows = plan.run(() -> EchoConnection.harvest(conns));
            conns.forEach(EchoConnection::stop);
            if (!finished.await(FINISH_TIMEOUT_S, TimeUnit.SECONDS)) {
                errors.set((finished.getCount()) + " connection(s) still waiting for an answer "
                        + FINISH_TIMEOUT_S + " s after the load stopped");
            }
            errors.check();
            long requests = 0;
            long answers = 0;
            for (EchoConnection c : conns) {
                if (c.sent() != c.answered()) {
                    throw new LoadFailure("echo: a connection sent " + c.sent() + " requests and got "
                            + c.answered() + " answers");
                }
                requests += c.sent();
                answers += c.answered();
            }
            return new Outcome(figures(windows, prefix), requests, answers);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LoadFailure("interrupted");
        }
    }

    static List<Figure> figures(List<WindowPlan.Window<Histogram>> windows, String prefix) {
        List<Double> rps = new ArrayList<>();
        List<Double> p99 = new ArrayList<>();
        List<Double> cpu = new ArrayList<>();
        for (WindowPlan.Window<Histogram> w : windows) {
            long n = w.data().getTotalCount();
            if (n == 0) {
                throw new LoadFailure("echo: no request was answered in a " + w.seconds() + " s window");
            }
            rps.add(n / w.seconds());
            Histogram h = w.data();
            p99.add(h.getValueAtPercentile(99.0) / 1e3);
            // The shape of the tail, on stderr: a p99 alone cannot say whether a few requests
            // stalled for milliseconds or the whole distribution is wider.
            System.err.printf("%s window: round trip p50 %d, p90 %d, p99 %d, p99.9 %d, max %d us%n", prefix,
                    h.getValueAtPercentile(50) / 1000, h.getValueAtPercentile(90) / 1000,
                    h.getValueAtPercentile(99) / 1000, h.getValueAtPercentile(99.9) / 1000, h.getMaxValue() / 1000);
            if (w.serverCpuNanos() >= 0) {
                cpu.add(w.serverCpuNanos() / 1e3 / n);
            }
        }
        List<Figure> out = new ArrayList<>(List.of(new Figure(prefix, "req/s", rps), new Figure(prefix + "-p99", "us", p99)));
        if (!cpu.isEmpty()) {
            out.add(new Figure(prefix + "-cpu", "us/op", cpu));
        }
        return out;
    }
}
