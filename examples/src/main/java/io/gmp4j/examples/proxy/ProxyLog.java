package io.gmp4j.examples.proxy;

import io.gmp4j.examples.AcceptBackoff;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.time.Duration;

/**
 * Where a {@link ProxyServer} reports what happens: each closed connection with its byte
 * counts, each failed dial, failed accepts, and the periodic stats line. Called from the proxy's goroutines,
 * so an implementation must be thread-safe and quick (a slow log slows the connection that
 * logs). Every method does nothing by default: {@link #QUIET} for benchmarks.
 */
public interface ProxyLog {
    /** Logs nothing. */
    ProxyLog QUIET = new ProxyLog() {
    };

    /** A connection closed; {@code r} has its byte counts and how it ended. */
    default void connectionClosed(ConnRecord r) {
    }

    /** A dial to {@code upstream} failed ({@code why}: refused, timed out); the next one is tried if any is left. */
    default void dialFailed(InetSocketAddress upstream, IOException why) {
    }

    /**
     * Accepting failed ({@code why}: out of file descriptors); the acceptor tries again after
     * {@code retryIn} ({@link io.gmp4j.examples.AcceptBackoff}).
     */
    default void acceptFailed(IOException why, Duration retryIn) {
    }

    /** The periodic stats line is due ({@link ProxyConfig#statsInterval}). */
    default void stats(ProxyStats s) {
    }

    /** Prints one line per event to {@code out}: what {@code ./gmp4j run proxy} shows. */
    static ProxyLog printing(PrintStream out) {
        return new ProxyLog() {
            @Override
            public void connectionClosed(ConnRecord r) {
                out.println(r.format());
            }

            @Override
            public void dialFailed(InetSocketAddress upstream, IOException why) {
                out.println("upstream " + ConnRecord.hostPort(upstream) + " failed: " + why.getMessage());
            }

            @Override
            public void acceptFailed(IOException why, Duration retryIn) {
                out.println(AcceptBackoff.line("proxy", why, retryIn));
            }

            @Override
            public void stats(ProxyStats s) {
                out.println(s.format());
            }
        };
    }
}
