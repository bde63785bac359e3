package io.gmp4j.runtime;

// A volatile flag padded onto a cache line of its own (JCTools-style superclass chain: the JVM
// lays out superclass fields first), so that the scheduler fields written on every idle
// transition do not evict it from the caches of the Ms that read it on every execute.

abstract class ClosedFlagPadBefore {
    long p00, p01, p02, p03, p04, p05, p06, p07;
    long p08, p09, p10, p11, p12, p13, p14, p15;
}

abstract class ClosedFlagValue extends ClosedFlagPadBefore {
    /** Set once by Scheduler.close. */
    volatile boolean closed;
}

/** The runtime's closed flag; see the comment above for the padding. */
final class ClosedFlag extends ClosedFlagValue {
    long q00, q01, q02, q03, q04, q05, q06, q07;
    long q08, q09, q10, q11, q12, q13, q14, q15;
}
