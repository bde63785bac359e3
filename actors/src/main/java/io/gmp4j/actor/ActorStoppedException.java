package io.gmp4j.actor;

/**
 * Thrown by {@link Reply#get()} when the asked actor stopped (or had already stopped) before it
 * answered; the cause is the exception that stopped it, if it failed.
 *
 * <pre>{@code
 * try {
 *     server.ask(Request::new, Duration.ofSeconds(1)).get();
 * } catch (ActorStoppedException e) {
 *     // the server is gone
 * }
 * }</pre>
 */
public class ActorStoppedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** An exception with {@code message} and the reason the actor stopped (may be null). */
    public ActorStoppedException(String message, Throwable cause) {
        super(message, cause);
    }
}
