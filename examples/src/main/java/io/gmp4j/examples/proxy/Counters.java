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

    /** The counters now (each exact once the proxy is quiet; a running proxy's are read one by one). */
    ProxyStats snapshot() {
        return new ProxyStats(active.sum(), total.sum(), bytesUp.sum(), bytesDown.sum(), failovers.sum(),
                errors.sum(), idleTimeouts.sum());
    }
}
