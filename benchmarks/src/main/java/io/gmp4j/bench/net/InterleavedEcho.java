package io.gmp4j.bench.net;

import org.HdrHistogram.Histogram;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The echo load against several servers at once, taking turns: every server has its own
 * {@code connections} connections open the whole time, and one server at a time is loaded for a
 * window while the others' connections sit idle. The turns go A B C, C B A, A B C ..., so a
 * machine that drifts (this one's speed changes by tens of percent within minutes) drifts under
 * every server alike, and the servers' figures are taken seconds apart rather than minutes.
 * Each turn starts with {@link #SETTLE_MS} of load that is not counted (the idle server's
 * threads wake up), then one counted window; between turns the loaded connections finish the
 * request in flight, so no load spills into the next server's window.
 *
 * <p>Figures per server, as {@link EchoLoad}'s: {@code <bench>} req/s, {@code <bench>-p99}
 * µs and, with the server's pid, {@code <bench>-cpu} µs of server CPU per request; the first
 * {@code warmups} turns of each server are not reported. At the end every request sent was
 * answered, byte for byte, or the run fails.
 *
 * @param servers     the echo servers, in turn order
 * @param pids        each server's pid (0: no CPU figure), in the same order
 * @param connections connections per server
 * @param loops       the client's event-loop threads
 */
public record InterleavedEcho(List<InetSocketAddress> servers, List<Long> pids, int connections, int loops) {
    /** Load at the start of each turn that is not counted. */
    static final long SETTLE_MS = 200;
    private static final long TIMEOUT_S = 30;

    public InterleavedEcho {
        servers = List.copyOf(servers);
        pids = List.copyOf(pids);
        if (servers.isEmpty() || pids.size() != servers.size() || connections < 1 || loops < 1) {
            throw new IllegalArgumentException("need one pid per server, connections and loops >= 1");
        }
    }

    /** Runs {@code warmups + measured} turns per server of {@code windowMillis} each; returns each server's figures, in order. */
    public List<List<Figure>> run(int warmups, int measured, long windowMillis, String bench) {
        int k = servers.size();
        FirstError errors = new FirstError();
        CountDownLatch primed = new CountDownLatch(connections * k);
        CountDownLatch finished = new CountDownLatch(connections * k);
        List<List<EchoConnection>> conns = new ArrayList<>();
        List<List<WindowPlan.Window<Histogram>>> windows = new ArrayList<>();
        List<ProcessCpu> cpus = new ArrayList<>();
        for (int s = 0; s < k; s++) {
            List<EchoConnection> mine = new ArrayList<>();
            for (int i = 0; i < connections; i++) {
                mine.add(new EchoConnection(i, errors, primed, finished));
            }
            conns.add(mine);
            windows.add(new ArrayList<>());
            cpus.add(pids.get(s) > 0 ? ProcessCpu.of(pids.get(s)) : null);
        }
        try (ClientConnections cc = new ClientConnections(loops)) {
            for (int s = 0; s < k; s++) {
                cc.connect(servers.get(s), conns.get(s), 64 * 1024);
            }
            errors.await(primed, "every echo connection got its first answer", TIMEOUT_S);
            for (int s = 0; s < k; s++) {
                pause(conns.get(s), errors);
            }
            for (int round = 0; round < warmups + measured; round++) {
                for (int j = 0; j < k; j++) {
                    int s = round % 2 == 0 ? j : k - 1 - j;
                    WindowPlan.Window<Histogram> w = turn(conns.get(s), cpus.get(s), windowMillis, errors);
                    if (round >= warmups) {
                        windows.get(s).add(w);
                    }
                }
            }
            for (List<EchoConnection> mine : conns) {
                mine.forEach(EchoConnection::stop);
            }
            errors.await(finished, "every connection finished", TIMEOUT_S);
            for (int s = 0; s < k; s++) {
                for (EchoConnection c : conns.get(s)) {
                    if (c.sent() != c.answered()) {
                        throw new LoadFailure("echo: a connection to " + servers.get(s) + " sent " + c.sent()
                                + " requests and got " + c.answered() + " answers");
                    }
                }
            }
        }
        List<List<Figure>> out = new ArrayList<>();
        for (int s = 0; s < k; s++) {
            out.add(EchoLoad.figures(windows.get(s), bench));
        }
        return out;
    }

    /** One turn of one server: resume its connections, settle, one counted window, pause them again. */
    private static WindowPlan.Window<Histogram> turn(List<EchoConnection> conns, ProcessCpu cpu, long windowMillis,
                                                     FirstError errors) {
        conns.forEach(EchoConnection::resume);
        waitFor(SETTLE_MS);
        EchoConnection.harvest(conns);
        long start = System.nanoTime();
        long cpuStart = cpu != null ? cpu.nanos() : -1;
        waitFor(windowMillis);
        Histogram h = EchoConnection.harvest(conns);
        long nanos = System.nanoTime() - start;
        long cpuNanos = cpu != null ? cpu.nanos() - cpuStart : -1;
        pause(conns, errors);
        return new WindowPlan.Window<>(nanos, cpuNanos, h);
    }

    /** Pauses every connection and returns once none has a request in flight. */
    private static void pause(List<EchoConnection> conns, FirstError errors) {
        CountDownLatch idle = new CountDownLatch(conns.size());
        for (EchoConnection c : conns) {
            c.pause(idle::countDown);
        }
        errors.await(idle, "every paused connection got its last answer", TIMEOUT_S);
    }

    private static void waitFor(long millis) {
        WindowPlan.waitUntil(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis));
    }
}
