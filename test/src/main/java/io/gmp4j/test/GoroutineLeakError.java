package io.gmp4j.test;

/**
 * A {@link GoTest} test's goroutines outlived it: still alive
 * {@link GoTestExtension#LEAK_GRACE_MILLIS} after its body returned. The message carries their
 * dump (each goroutine and where it waits).
 */
public final class GoroutineLeakError extends AssertionError {
    private static final long serialVersionUID = 1L;

    private final long leaked;
    private final String dump;

    GoroutineLeakError(long leaked, String dump) {
        super(leaked + (leaked == 1 ? " goroutine" : " goroutines") + " still alive after the test returned (a leak):\n\n" + dump);
        this.leaked = leaked;
        this.dump = dump;
    }

    /** How many goroutines were still alive. */
    public long leaked() {
        return leaked;
    }

    /** Their dump. */
    public String dump() {
        return dump;
    }
}
