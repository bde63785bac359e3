package io.gmp4j.actor;

/**
 * The notice a watcher receives, exactly once, when an actor it {@linkplain ActorContext#watch
 * watches} has stopped: Erlang's {@code 'DOWN'} message, Akka's {@code Terminated}.
 *
 * <pre>{@code
 * Behavior<Object> watcher = Behavior.setup(ctx -> {
 *     ctx.watch(worker);
 *     return (c, msg) -> {
 *         if (msg instanceof Terminated t && t.failed()) {
 *             System.out.println(t.ref().name() + " failed: " + t.reason());
 *         }
 *         return Behavior.same();
 *     };
 * });
 * }</pre>
 *
 * @param ref    the actor that stopped
 * @param reason the exception that stopped it, or null for a normal stop
 */
public record Terminated(ActorRef<?> ref, Throwable reason) {
    /** True when the actor stopped because its handler or process body threw. */
    public boolean failed() {
        return reason != null;
    }
}
