package io.gmp4j.test;

/**
 * A {@link GoTest} test ran past its {@link GoTest#timeoutMillis}. The message carries the dump
 * of every goroutine of its runtime, taken at the timeout: where each one waits.
 */
public final class GoroutineTimeoutError extends AssertionError {
    private static final long serialVersionUID = 1L;

    private final String dump;

    GoroutineTimeoutError(long timeoutMillis, String dump) {
        super("test timed out after " + timeoutMillis + " ms; its goroutines:\n\n" + dump);
        this.dump = dump;
    }

    /** The goroutine dump taken at the timeout. */
    public String dump() {
        return dump;
    }
}
