package io.gmp4j.actor;

/**
 * What an actor that {@linkplain ActorContext#trapExits traps exits} receives, as a message,
 * when an actor {@linkplain ActorContext#link linked} to it stops: Erlang's
 * {@code {'EXIT', Pid, Reason}}. Exactly one per link; like {@link Terminated} it passes the
 * bound of a bounded mailbox.
 *
 * <pre>{@code
 * Behavior<Object> guard = Behavior.setup(ctx -> {
 *     ctx.trapExits(true);
 *     ctx.link(worker);
 *     return (c, msg) -> {
 *         if (msg instanceof ExitSignal e && e.failed()) {
 *             System.out.println(e.ref().name() + " died: " + e.reason());
 *         }
 *         return Behavior.same();
 *     };
 * });
 * }</pre>
 *
 * @param ref    the linked actor that stopped
 * @param reason why: null for a normal stop; the exception that stopped it; or a
 *               {@link NoSuchActorException} if it had already stopped when the link was made
 */
public record ExitSignal(ActorRef<?> ref, Throwable reason) {
    /** True when the linked actor stopped abnormally (a reason that is not null). */
    public boolean failed() {
        return reason != null;
    }
}
