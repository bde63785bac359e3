package io.gmp4j.actor;

/**
 * The exit reason an actor gets when it {@linkplain ActorContext#link links} to an actor that
 * has already stopped (Erlang's {@code noproc}): an abnormal reason, so it kills an actor that
 * does not trap exits, and arrives as an {@link ExitSignal} at one that does.
 *
 * <pre>{@code
 * if (msg instanceof ExitSignal e && e.reason() instanceof NoSuchActorException) {
 *     // the actor was gone before we linked
 * }
 * }</pre>
 */
public final class NoSuchActorException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param message which actor, and what was attempted
     */
    public NoSuchActorException(String message) {
        super(message, null, false, false);
    }
}
