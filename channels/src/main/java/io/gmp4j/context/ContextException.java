package io.gmp4j.context;

/**
 * Why a context is done: Go's {@code context.Canceled} and {@code context.DeadlineExceeded}.
 * There are exactly two instances, {@link Context#CANCELED} and {@link Context#DEADLINE_EXCEEDED};
 * compare with {@code ==} as Go compares the error values. Throwable (as Go code returns
 * {@code ctx.Err()}), without a stack trace: the same instance is shared by every context.
 */
public final class ContextException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** True for the deadline error. */
    private final boolean deadline;

    ContextException(String message, boolean deadline) {
        super(message, null, false, false);
        this.deadline = deadline;
    }

    /** True for {@link Context#DEADLINE_EXCEEDED}: Go's {@code Timeout() bool} of that error. */
    public boolean isTimeout() {
        return deadline;
    }
}
