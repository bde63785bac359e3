package io.gmp4j.actor;

/**
 * Thrown by {@link Reply#get()} when an {@code ask} got no answer within its timeout.
 *
 * <pre>{@code
 * try {
 *     int n = counter.<Integer>ask(Get::new, Duration.ofSeconds(1)).get();
 * } catch (AskTimeoutException e) {
 *     // no answer in time
 * }
 * }</pre>
 */
public class AskTimeoutException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** An exception with {@code message}. */
    public AskTimeoutException(String message) {
        super(message);
    }
}
