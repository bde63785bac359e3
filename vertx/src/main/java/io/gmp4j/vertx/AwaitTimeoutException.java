package io.gmp4j.vertx;

import java.time.Duration;

/**
 * {@link Await#await(io.vertx.core.Future, Duration)} gave up: the future was not complete when
 * the timeout passed. The future itself goes on and may still complete later; nobody waits for
 * it then.
 */
public final class AwaitTimeoutException extends AwaitException {
    private static final long serialVersionUID = 1L;

    private final transient Duration timeout;

    /**
     * A timed-out await.
     *
     * @param timeout how long the caller waited
     */
    public AwaitTimeoutException(Duration timeout) {
        super("Vert.x future not complete after " + timeout, null);
        this.timeout = timeout;
    }

    /** How long the caller waited before giving up. */
    public Duration timeout() {
        return timeout;
    }
}
