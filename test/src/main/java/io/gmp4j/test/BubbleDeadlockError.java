package io.gmp4j.test;

/**
 * Go's "deadlock: all goroutines in bubble are blocked": every goroutine of a synctest bubble is
 * durably blocked and no timer of the bubble is pending, so nothing can wake them. Thrown by
 * {@link SyncTest#run}; the message carries the bubble's dump (each goroutine, where it waits,
 * and the bubble's clock). An {@link AssertionError}, so a test framework reports it as a
 * failure.
 */
public final class BubbleDeadlockError extends AssertionError {
    private static final long serialVersionUID = 1L;

    /** The line Go prints. */
    public static final String MESSAGE = "deadlock: all goroutines in bubble are blocked";

    private final String dump;

    BubbleDeadlockError(String dump) {
        super(MESSAGE + "\n\n" + dump);
        this.dump = dump;
    }

    /** The dump of the bubble's goroutines when the deadlock was found. */
    public String dump() {
        return dump;
    }
}
