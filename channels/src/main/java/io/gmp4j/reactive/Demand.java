package io.gmp4j.reactive;

/** Reactive Streams demand arithmetic (§3.17: demand saturates at Long.MAX_VALUE, "unbounded"). */
final class Demand {
    private Demand() {
    }

    /** {@code a + b}, capped at {@link Long#MAX_VALUE}. Both are non-negative. */
    static long addCap(long a, long b) {
        long r = a + b;
        return r < 0 ? Long.MAX_VALUE : r;
    }
}
