package io.gmp4j.reactive;

/**
 * TCK timeouts: generous, because the tests run on two busy cores. The TCK waits the full
 * no-signals time wherever it checks that nothing happens, so that one stays short.
 */
final class TckTimeouts {
    static final long DEFAULT_MS = 2_000;
    static final long NO_SIGNALS_MS = 100;
    static final long GC_MS = 2_000;

    private TckTimeouts() {
    }
}
