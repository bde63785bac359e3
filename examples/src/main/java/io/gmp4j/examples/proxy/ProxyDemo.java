package io.gmp4j.examples.proxy;

import io.gmp4j.GoRuntime;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.stream.Collectors;

/**
 * {@code ./gmp4j run proxy --listen 127.0.0.1:9000 --upstream 127.0.0.1:9001[,127.0.0.1:9002...]
 * [--max-conns N] [--connect-timeout 5s] [--idle-timeout 5m] [--stats-interval 10s]}: runs a
 * {@link ProxyServer} until Ctrl-C, printing a line per closed connection and the stats line.
 * Bad flags: the error and the usage on standard error, exit status 2; cannot listen: status 1.
 */
public final class ProxyDemo {
    private ProxyDemo() {
    }

    /** The example's entry point. */
    public static void main(String[] args) {
        for (String a : args) {
            if (a.equals("-h") || a.equals("--help")) {
                System.out.println(ProxyFlags.USAGE);
                return;
            }
        }
        ProxyConfig cfg;
        try {
            cfg = ProxyFlags.parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("proxy: " + e.getMessage() + "\n" + ProxyFlags.USAGE);
            System.exit(2);
            return;
        }
        GoRuntime rt = GoRuntime.builder().name("proxy").build();
        ProxyServer server;
        try {
            server = ProxyServer.start(rt, cfg, ProxyLog.printing(System.out));
        } catch (IOException e) {
            System.err.println("proxy: cannot listen on " + ConnRecord.hostPort(cfg.listen()) + ": " + e.getMessage()
                    + " (try --listen with another port)");
            System.exit(1);
            return;
        } catch (IllegalArgumentException e) {
            System.err.println("proxy: " + e.getMessage());
            System.exit(2);
            return;
        }
        System.out.println(banner(server.address(), cfg));
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            System.out.println("proxy stopped: " + server.stats().format());
            rt.close();
        }, "proxy-shutdown"));
        server.awaitStopped(Duration.ofDays(365 * 100L));
    }

    /** What it listens on, where it forwards to, and its limits. */
    static String banner(InetSocketAddress bound, ProxyConfig cfg) {
        String ups = cfg.upstreams().stream().map(ConnRecord::hostPort).collect(Collectors.joining(", "));
        return "gmp4j proxy listening on " + ConnRecord.hostPort(bound) + " -> " + ups
                + (cfg.upstreams().size() > 1 ? " (round-robin with failover)" : "")
                + "; max " + (cfg.maxConns() == 0 ? "unlimited" : String.valueOf(cfg.maxConns())) + " conns"
                + ", connect timeout " + ProxyFlags.formatDuration(cfg.connectTimeout())
                + ", idle timeout " + (cfg.idleTimeout().isZero() ? "off" : ProxyFlags.formatDuration(cfg.idleTimeout()))
                + ", stats " + (cfg.statsInterval().isZero() ? "off" : "every " + ProxyFlags.formatDuration(cfg.statsInterval()))
                + "; Ctrl-C stops it";
    }
}
