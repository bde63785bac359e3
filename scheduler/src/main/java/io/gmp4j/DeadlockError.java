package io.gmp4j;

/**
 * Go's "fatal error: all goroutines are asleep - deadlock!": every goroutine of a runtime is
 * parked on a gmp4j wait and nothing can wake any of them. Thrown by {@link GoRuntime#main}
 * (and so {@link Go#main}); the message carries the goroutine dump.
 */
public final class DeadlockError extends Error {
    private static final long serialVersionUID = 1L;

    /** The line Go prints. */
    public static final String MESSAGE = "all goroutines are asleep - deadlock!";

    private final String dump;

    DeadlockError(String dump) {
        super(MESSAGE + "\n\n" + dump);
        this.dump = dump;
    }

    /** The goroutine dump taken when the deadlock was found. */
    public String dump() {
        return dump;
    }
}
