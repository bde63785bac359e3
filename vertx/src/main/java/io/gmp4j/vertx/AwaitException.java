package io.gmp4j.vertx;

/**
 * A Vert.x {@code Future} that {@link Await#await awaited} failed with a checked exception (the
 * cause) or did not complete in time ({@link AwaitTimeoutException}). A future that failed with
 * an unchecked exception or an error gives that exception itself, not this wrapper.
 */
public class AwaitException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * A failure of an awaited future.
     *
     * @param message what was awaited and how it ended
     * @param cause   the future's checked failure, or null for a timeout
     */
    public AwaitException(String message, Throwable cause) {
        super(message, cause);
    }
}
