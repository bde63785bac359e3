package io.gmp4j.actor;

import java.util.function.Function;

/**
 * A behaviour actor's message handler, Akka-typed style: it handles one message and returns
 * the behaviour for the next one: {@link #same()} to keep this one, {@link #stopped()} to stop,
 * or another behaviour to switch to.
 *
 * <pre>{@code
 * // A counter that answers Get with its count.
 * sealed interface Msg permits Inc, Get {}
 * record Inc() implements Msg {}
 * record Get(ActorRef<Integer> replyTo) implements Msg {}
 *
 * static Behavior<Msg> counter(int n) {
 *     return (ctx, msg) -> switch (msg) {
 *         case Inc i -> counter(n + 1);
 *         case Get g -> { g.replyTo().tell(n); yield Behavior.same(); }
 *     };
 * }
 * }</pre>
 *
 * <h2>Where it runs</h2>
 * A behaviour actor is not a thread and not a goroutine: its mailbox is drained by a plain task
 * that the gmp4j scheduler runs directly on an M, handling at most its throughput of messages
 * per run. The handler therefore must not block: no {@link Reply#get()}, no blocking channel
 * operation, no sleep. Results of asks and channel values reach it as messages
 * ({@link Reply#pipeTo}, {@link ActorContext#pipeFrom}). Code that must block either wraps the call in
 * {@code io.gmp4j.Syscall.blocking(...)} (the scheduler hands the P to another M meanwhile), or
 * belongs in a process actor ({@link ActorSystem#spawnProcess}), which is a goroutine.
 *
 * <p>An exception thrown by the handler stops the actor; its watchers receive a
 * {@link Terminated} with that exception as the reason, actors linked to it die of it (or get
 * an {@link ExitSignal} if they trap exits), and a {@link Supervisor} may start it again from
 * its initial behaviour.
 *
 * @param <T> the message type
 */
@FunctionalInterface
public interface Behavior<T> {
    /**
     * Handles one message.
     *
     * @param ctx the actor's context (its self reference, spawn, watch, stop)
     * @param msg the message
     * @return the behaviour for the next message: {@link #same()}, {@link #stopped()} or another
     * @throws Exception to fail (and so stop) the actor
     */
    Behavior<T> receive(ActorContext<T> ctx, T msg) throws Exception;

    /**
     * Keep the current behaviour.
     *
     * <pre>{@code
     * Behavior<String> echo = (ctx, s) -> { System.out.println(s); return Behavior.same(); };
     * }</pre>
     */
    @SuppressWarnings("unchecked")
    static <T> Behavior<T> same() {
        return (Behavior<T>) Markers.SAME;
    }

    /**
     * Stop the actor after this message: its children are stopped first, then its watchers are
     * told, and messages still in its mailbox become dead letters.
     *
     * <pre>{@code
     * Behavior<String> once = (ctx, s) -> Behavior.stopped();
     * }</pre>
     */
    @SuppressWarnings("unchecked")
    static <T> Behavior<T> stopped() {
        return (Behavior<T>) Markers.STOPPED;
    }

    /**
     * A behaviour built when the actor starts, with its context: the place to spawn children,
     * watch other actors and set up state. The factory runs on the actor's first run, before
     * any message.
     *
     * <pre>{@code
     * Behavior<Object> parent = Behavior.setup(ctx -> {
     *     ActorRef<String> child = ctx.spawn((c, s) -> Behavior.same());
     *     ctx.watch(child);
     *     return (c, msg) -> Behavior.same();
     * });
     * }</pre>
     */
    static <T> Behavior<T> setup(Function<ActorContext<T>, Behavior<T>> factory) {
        if (factory == null) {
            throw new NullPointerException("setup: null factory");
        }
        return new Markers.Setup<>(factory);
    }
}

/** The marker behaviours behind {@link Behavior#same()}, {@link Behavior#stopped()} and setup. */
final class Markers {
    static final Behavior<Object> SAME = new Marker("same");
    static final Behavior<Object> STOPPED = new Marker("stopped");

    private Markers() {
    }

    private record Marker(String what) implements Behavior<Object> {
        @Override
        public Behavior<Object> receive(ActorContext<Object> ctx, Object msg) {
            throw new IllegalStateException("Behavior." + what + "() is a marker, not an initial behaviour");
        }
    }

    record Setup<T>(Function<ActorContext<T>, Behavior<T>> factory) implements Behavior<T> {
        @Override
        public Behavior<T> receive(ActorContext<T> ctx, T msg) {
            throw new IllegalStateException("a setup behaviour handles no message");
        }
    }
}
