package io.gmp4j.bench;

import io.gmp4j.bench.net.NetBench;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The server side of one network benchmark run, as processes: for the echo and chat
 * benchmarks the impl's server; for the proxy benchmarks the Netty echo server as the backend
 * (the same for every impl, so that only the proxy differs, with the run's procs) and the
 * impl's proxy in front of it, given the backend's port; for impl {@code direct} the backend
 * alone, which the client then reaches without a proxy (the reference).
 */
final class ServerChain implements AutoCloseable {
    /** The backend's implementation for the proxy benchmarks. */
    static final String PROXY_BACKEND = "netty";

    /** Started first to last; the last is the one the client loads. */
    private final List<ServerProcess> processes;
    private final boolean cpuMeasured;

    private ServerChain(List<ServerProcess> processes, boolean cpuMeasured) {
        this.processes = List.copyOf(processes);
        this.cpuMeasured = cpuMeasured;
    }

    /**
     * Starts the server side of {@code bench} for {@code impl} at {@code procs}; on failure
     * stops what it started and throws.
     */
    static ServerChain start(ServerLauncher launcher, String bench, String impl, int procs) throws IOException {
        String kind = NetBench.serverKind(bench);
        String label = "[" + bench + " " + impl + " p" + procs + " ";
        if (!kind.equals("proxy")) {
            return new ServerChain(List.of(launcher.start(kind, impl, procs, List.of(), label + "server] ")), true);
        }
        List<ServerProcess> started = new ArrayList<>();
        try {
            ServerProcess backend = launcher.start("echo", PROXY_BACKEND, procs, List.of(), label + "backend] ");
            started.add(backend);
            if (impl.equals("direct")) {
                return new ServerChain(started, false);
            }
            started.add(launcher.start("proxy", impl, procs, List.of(Integer.toString(backend.port())), label + "proxy] "));
            return new ServerChain(started, true);
        } catch (IOException | RuntimeException e) {
            new ServerChain(started, false).close();
            throw e;
        }
    }

    /** The port the load client connects to: the server's, the proxy's, or for direct the backend's. */
    int port() {
        return front().port();
    }

    /**
     * The process whose CPU time the {@code -cpu} rows count: the server, or the proxy; 0 for
     * direct, where there is no proxy to measure.
     */
    long cpuPid() {
        return cpuMeasured ? front().pid() : 0;
    }

    private ServerProcess front() {
        return processes.getLast();
    }

    /** Stops the processes, the front one first (the proxy before its backend). */
    @Override
    public void close() {
        for (ServerProcess p : processes.reversed()) {
            p.close();
        }
    }
}
