package io.gmp4j.examples.proxy;

import java.net.InetSocketAddress;
import java.time.Duration;

/**
 * What one proxied connection did, logged when it closes ({@link ProxyLog#connectionClosed}).
 *
 * @param id       the connection's number, from 1 in accept order
 * @param client   the client's address
 * @param upstream the upstream it was forwarded to, or null if none could be reached
 * @param bytesUp  bytes forwarded from the client to the upstream
 * @param bytesDown bytes forwarded from the upstream to the client
 * @param duration from accept to close
 * @param outcome  how it ended
 * @param detail   the error or timeout behind the outcome, or "" for {@link Outcome#EOF}
 */
public record ConnRecord(long id, InetSocketAddress client, InetSocketAddress upstream, long bytesUp,
                         long bytesDown, Duration duration, Outcome outcome, String detail) {
    /** How a proxied connection ended. */
    public enum Outcome {
        /** Both sides closed their write side and every byte was forwarded. */
        EOF,
        /** No byte moved either way for the idle timeout; the proxy closed both connections. */
        IDLE,
        /** Every upstream refused or timed out; the client's connection was closed. */
        NO_UPSTREAM,
        /** A read or write failed (reset by peer, broken pipe); the proxy closed both connections. */
        ERROR,
        /** The proxy was shutting down and closed both connections. */
        SHUTDOWN
    }

    /** One log line: {@code conn #7 127.0.0.1:51234 -> 127.0.0.1:9001 up=120 down=4096 in 0.012s: EOF}. */
    public String format() {
        return "conn #" + id + " " + hostPort(client) + " -> " + (upstream == null ? "(none)" : hostPort(upstream))
                + " up=" + bytesUp + " down=" + bytesDown + " in " + String.format("%.3fs", duration.toNanos() / 1e9)
                + ": " + outcome + (detail.isEmpty() ? "" : " (" + detail + ")");
    }

    /** {@code 127.0.0.1:9001}, without InetSocketAddress's leading slash. */
    static String hostPort(InetSocketAddress a) {
        if (a == null) {
            return "?";
        }
        return (a.getAddress() != null ? a.getAddress().getHostAddress() : a.getHostString()) + ":" + a.getPort();
    }
}
