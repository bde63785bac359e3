package io.gmp4j.examples.proxy;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;

/**
 * What a {@link ProxyServer} listens on, where it forwards to, and its limits.
 *
 * @param listen         the address to listen on (port 0: a free port, see {@link ProxyServer#address})
 * @param upstreams      the servers to forward to, tried round-robin with failover; at least one
 * @param maxConns       the most client connections served at once (Go's {@code LimitListener}:
 *                       one more waits to be accepted until a connection ends); 0 for no limit
 * @param connectTimeout how long a dial to one upstream may take before the next is tried; positive
 * @param idleTimeout    a connection with no bytes in either direction for this long is closed;
 *                       zero for none
 * @param statsInterval  how often the stats line is logged; zero for never
 */
public record ProxyConfig(InetSocketAddress listen, List<InetSocketAddress> upstreams, int maxConns,
                          Duration connectTimeout, Duration idleTimeout, Duration statsInterval) {
    /** 1024 connections at once. */
    public static final int DEFAULT_MAX_CONNS = 1024;
    /** 5 seconds to connect to one upstream. */
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(5);
    /** 5 minutes without a byte either way. */
    public static final Duration DEFAULT_IDLE_TIMEOUT = Duration.ofMinutes(5);
    /** A stats line every 10 seconds. */
    public static final Duration DEFAULT_STATS_INTERVAL = Duration.ofSeconds(10);

    /** Checks every field; the messages name the command-line flag that sets it. */
    public ProxyConfig {
        if (listen == null) {
            throw new IllegalArgumentException("--listen: missing address");
        }
        if (upstreams == null || upstreams.isEmpty()) {
            throw new IllegalArgumentException("--upstream: at least one upstream host:port is needed");
        }
        upstreams = List.copyOf(upstreams);
        for (InetSocketAddress u : upstreams) {
            if (u.isUnresolved()) {
                throw new IllegalArgumentException("--upstream: cannot resolve host " + u.getHostString());
            }
            if (u.getPort() == 0) {
                throw new IllegalArgumentException("--upstream: port 0 is not a server's port (" + u + ")");
            }
        }
        if (listen.isUnresolved()) {
            throw new IllegalArgumentException("--listen: cannot resolve host " + listen.getHostString());
        }
        if (maxConns < 0) {
            throw new IllegalArgumentException("--max-conns must be >= 0 (0: no limit), got " + maxConns);
        }
        if (connectTimeout == null || connectTimeout.isZero() || connectTimeout.isNegative()) {
            throw new IllegalArgumentException("--connect-timeout must be positive, got " + connectTimeout);
        }
        if (idleTimeout == null || idleTimeout.isNegative()) {
            throw new IllegalArgumentException("--idle-timeout must be >= 0 (0: none), got " + idleTimeout);
        }
        if (statsInterval == null || statsInterval.isNegative()) {
            throw new IllegalArgumentException("--stats-interval must be >= 0 (0: off), got " + statsInterval);
        }
    }

    /** Forwards {@code listen} to {@code upstreams} with the default limits. */
    public static ProxyConfig of(InetSocketAddress listen, List<InetSocketAddress> upstreams) {
        return new ProxyConfig(listen, upstreams, DEFAULT_MAX_CONNS, DEFAULT_CONNECT_TIMEOUT,
                DEFAULT_IDLE_TIMEOUT, DEFAULT_STATS_INTERVAL);
    }

    /** This configuration with at most {@code n} connections at once (0: no limit). */
    public ProxyConfig withMaxConns(int n) {
        return new ProxyConfig(listen, upstreams, n, connectTimeout, idleTimeout, statsInterval);
    }

    /** This configuration with {@code d} to connect to one upstream. */
    public ProxyConfig withConnectTimeout(Duration d) {
        return new ProxyConfig(listen, upstreams, maxConns, d, idleTimeout, statsInterval);
    }

    /** This configuration closing connections idle for {@code d} (zero: never). */
    public ProxyConfig withIdleTimeout(Duration d) {
        return new ProxyConfig(listen, upstreams, maxConns, connectTimeout, d, statsInterval);
    }

    /** This configuration logging stats every {@code d} (zero: never). */
    public ProxyConfig withStatsInterval(Duration d) {
        return new ProxyConfig(listen, upstreams, maxConns, connectTimeout, idleTimeout, d);
    }
}
