package io.gmp4j.examples.proxy;

import io.gmp4j.net.Conn;
import io.gmp4j.net.Net;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The upstreams, dialled round-robin with failover: connection k starts at upstream
 * {@code k mod n}; a dial that is refused or times out moves on to the next one, until all
 * {@code n} were tried. No upstream is remembered as down: each connection tries afresh, so an
 * upstream that comes back gets traffic at once, and one that is down costs each connection
 * that starts at it one refused dial (or one connect timeout, which is why that is short).
 */
final class Upstreams {
    private final List<InetSocketAddress> all;
    private final Duration connectTimeout;
    private final ProxyLog log;
    private final Counters counters;
    /** Connections dialled so far: the round-robin position. */
    private final AtomicLong next = new AtomicLong();

    Upstreams(List<InetSocketAddress> all, Duration connectTimeout, ProxyLog log, Counters counters) {
        this.all = List.copyOf(all);
        this.connectTimeout = connectTimeout;
        this.log = log;
        this.counters = counters;
    }

    /** A connection to {@code address}, the upstream that answered. */
    record Dialed(Conn conn, InetSocketAddress address) {
    }

    /**
     * Dials the next upstream in turn, and the ones after it if it fails, for {@code client}'s
     * session: the upstream connection shares the client's event loop ({@link Net#dial(java.net.SocketAddress,
     * Duration, Conn)}). Call from a goroutine.
     *
     * @throws IOException when every upstream failed; the message lists each one's error
     */
    Dialed dial(Conn client) throws IOException {
        int n = all.size();
        int start = (int) Math.floorMod(next.getAndIncrement(), (long) n);
        StringBuilder why = new StringBuilder("no upstream reachable:");
        for (int i = 0; i < n; i++) {
            InetSocketAddress a = all.get((start + i) % n);
            try {
                return new Dialed(Net.dial(a, connectTimeout, client), a);
            } catch (IOException e) {
                log.dialFailed(a, e);
                why.append(' ').append(ConnRecord.hostPort(a)).append(" (").append(reason(e)).append(')');
                if (i < n - 1) {
                    counters.failovers.increment();
                }
            }
        }
        throw new IOException(why.toString());
    }

    /** "connection refused", "i/o timeout": the end of Go's message, without the address. */
    private static String reason(IOException e) {
        String m = String.valueOf(e.getMessage());
        int colon = m.lastIndexOf(": ");
        return colon >= 0 ? m.substring(colon + 2) : m;
    }
}
