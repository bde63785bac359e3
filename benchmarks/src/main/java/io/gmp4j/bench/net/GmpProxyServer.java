package io.gmp4j.bench.net;

import io.gmp4j.GoRuntime;
import io.gmp4j.examples.proxy.ProxyConfig;
import io.gmp4j.examples.proxy.ProxyLog;
import io.gmp4j.examples.proxy.ProxyServer;
import io.gmp4j.examples.proxy.ProxyStats;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;

/**
 * The proxy example ({@link ProxyServer}) forwarding to one upstream, on its own runtime with
 * {@code maxProcs(procs)}: the example's default limits (1,024 connections, 5 s connect and
 * 5 min idle timeouts), quiet, with the periodic stats line off.
 */
final class GmpProxyServer implements BenchServer {
    private final GoRuntime rt;
    private final ProxyServer server;

    private GmpProxyServer(GoRuntime rt, ProxyServer server) {
        this.rt = rt;
        this.server = server;
    }

    static GmpProxyServer start(int procs, InetSocketAddress upstream) throws IOException {
        GoRuntime rt = GoRuntime.builder().name("proxy").maxProcs(procs).build();
        ProxyConfig cfg = ProxyConfig.of(new InetSocketAddress("127.0.0.1", 0), List.of(upstream))
                .withStatsInterval(Duration.ZERO);
        try {
            return new GmpProxyServer(rt, ProxyServer.start(rt, cfg, ProxyLog.QUIET));
        } catch (IOException | RuntimeException e) {
            rt.close();
            throw e;
        }
    }

    /** The proxy's counters now (exact once no connection is open). */
    ProxyStats stats() {
        return server.stats();
    }

    @Override
    public InetSocketAddress address() {
        return server.address();
    }

    @Override
    public void close() {
        server.close();
        System.err.println("gmp4j proxy: " + server.stats().format());
        rt.close();
    }
}
