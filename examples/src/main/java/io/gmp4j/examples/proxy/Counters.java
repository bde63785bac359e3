package io.gmp4j.examples.proxy;

import java.util.concurrent.atomic.LongAdder;

/**
 * The live counters behind {@link ProxyStats}: every connection's goroutines add to them as they
 * go. LongAdders, because the two copy goroutines of every connection add bytes after each read
 * and a single atomic would be a contended cache line across Ps.
 */
final class Counters {
    final LongAdder active = new LongAdder();
    final LongAdder total = new LongAdder();
    final LongAdder bytesUp = new LongAdder();
    final LongAdder bytesDown = new LongAdder();
    final LongAdder failovers = new LongAdder();
    final LongAdder errors = new LongAdder();
    final LongAdder idleTimeouts = new LongAdder();

    /**
     * The counters now. Not one atomic snapshot, but read in an order that makes the quiet
     * case exact: the acceptor adds to {@code active} before {@code total}, and a connection's
     * bytes are added before its {@code active} decrement; reading {@code total}, then
     * {@code active}, then the rest, a snapshot with {@code active == 0} has every byte of the
     * {@code total} connections it counts.
     */
    ProxyStats snapshot() {
        long t = total.sum();
        long a = active.sum();
        return new ProxyStats(a, t, bytesUp.sum(), bytesDown.sum(), failovers.sum(), errors.sum(), idleTimeouts.sum());
    }
}
