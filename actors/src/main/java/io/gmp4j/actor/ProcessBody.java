package io.gmp4j.actor;

/**
 * The body of a process actor, Erlang style: a function that runs as a goroutine and pulls its
 * messages with {@link ProcessContext#receive()}. The actor stops when the body returns (a
 * normal stop) or throws (a failure, the reason in {@link Terminated}).
 *
 * <pre>{@code
 * ActorRef<Object> echo = system.spawnProcess(p -> {
 *     while (true) {
 *         if (p.receive() instanceof Ping(ActorRef<Object> from)) {
 *             from.tell("pong");
 *         }
 *     }
 * });
 * }</pre>
 *
 * @param <T> the message type
 */
@FunctionalInterface
public interface ProcessBody<T> {
    /**
     * Runs the process.
     *
     * @param self the process's context: receive, spawn, watch
     * @throws Exception to fail the actor
     */
    void run(ProcessContext<T> self) throws Exception;
}
