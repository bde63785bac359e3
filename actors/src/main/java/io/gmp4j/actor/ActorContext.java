package io.gmp4j.actor;

import io.gmp4j.chan.RecvChan;
import io.gmp4j.chan.Select;

import java.util.function.Function;
import java.util.function.Supplier;

/**
 * What an actor can do besides handling messages: its own reference, spawning children and
 * supervisors, watching (monitors) and linking to other actors, trapping exits, stopping. Given to a behaviour's handler and (as
 * {@link ProcessContext}) to a process actor. Use it only from the actor's own code.
 *
 * <pre>{@code
 * Behavior<Object> supervisorLike = Behavior.setup(ctx -> {
 *     ActorRef<String> worker = ctx.spawn((c, s) -> Behavior.same(), "worker");
 *     ctx.watch(worker);
 *     return (c, msg) -> msg instanceof Terminated ? Behavior.stopped() : Behavior.same();
 * });
 * }</pre>
 *
 * @param <T> the actor's message type
 */
public interface ActorContext<T> {
    /**
     * This actor's own reference.
     *
     * <pre>{@code
     * other.tell(new Hello(ctx.self()));
     * }</pre>
     */
    ActorRef<T> self();

    /**
     * The actor system this actor belongs to.
     *
     * <pre>{@code
     * long dead = ctx.system().deadLetterCount();
     * }</pre>
     */
    ActorSystem system();

    /**
     * Spawns an anonymous child behaviour actor. Children stop before their parent.
     *
     * <pre>{@code
     * ActorRef<String> child = ctx.spawn((c, s) -> Behavior.same());
     * }</pre>
     *
     * @throws IllegalStateException if this actor is stopping
     */
    default <U> ActorRef<U> spawn(Behavior<U> behavior) {
        return spawn(behavior, Props.DEFAULT);
    }

    /**
     * Spawns a child behaviour actor registered under {@code name}.
     *
     * <pre>{@code
     * ActorRef<String> child = ctx.spawn((c, s) -> Behavior.same(), "child");
     * }</pre>
     *
     * @throws IllegalArgumentException if the name is taken
     * @throws IllegalStateException    if this actor is stopping
     */
    default <U> ActorRef<U> spawn(Behavior<U> behavior, String name) {
        return spawn(behavior, Props.named(name));
    }

    /**
     * Spawns a child behaviour actor with {@code props}.
     *
     * <pre>{@code
     * ActorRef<String> child = ctx.spawn((c, s) -> Behavior.same(), Props.DEFAULT.withThroughput(8));
     * }</pre>
     *
     * @throws IllegalArgumentException if the name is taken
     * @throws IllegalStateException    if this actor is stopping
     */
    <U> ActorRef<U> spawn(Behavior<U> behavior, Props props);

    /**
     * Spawns a child process actor (a goroutine running {@code body}).
     *
     * <pre>{@code
     * ActorRef<String> child = ctx.spawnProcess(p -> System.out.println(p.receive()), Props.DEFAULT);
     * }</pre>
     *
     * @throws IllegalArgumentException if the name is taken
     * @throws IllegalStateException    if this actor is stopping
     */
    <U> ActorRef<U> spawnProcess(ProcessBody<U> body, Props props);

    /**
     * Monitors {@code other}: when it stops, this actor receives one {@link Terminated} message
     * (immediately if it has stopped already). The actor's message type must accept
     * {@code Terminated} (use {@code Object} or {@link #watchWith} otherwise). A watch lasts
     * until this actor takes its notice from the mailbox: watching an actor already watched
     * changes nothing (still one notice, in the first watch's form), also while the notice is
     * queued; watching it again after the notice was received is a new watch, with its own
     * notice. When this actor stops, its watches end with it (no notice is sent to a dead
     * watcher). An actor on another node (gmp4j-cluster) is watched the same way; its notice
     * also comes when its node is lost, with a reason that says "node down".
     *
     * <pre>{@code
     * ctx.watch(worker);
     * }</pre>
     */
    void watch(ActorRef<?> other);

    /**
     * Like {@link #watch}, but this actor receives {@code toMessage.apply(terminated)}: a typed
     * way to be told.
     *
     * <pre>{@code
     * record WorkerDown(Terminated t) implements Msg {}
     * ctx.watchWith(worker, WorkerDown::new);
     * }</pre>
     */
    void watchWith(ActorRef<?> other, Function<Terminated, ? extends T> toMessage);

    /**
     * Stops monitoring {@code other}: once it returns, no {@link Terminated} for it is received,
     * not even one already queued in the mailbox (it is dropped), as in Pekko. A process actor's
     * notice that a selective receive has already passed over stays in its stash.
     *
     * <pre>{@code
     * ctx.unwatch(worker);
     * }</pre>
     */
    void unwatch(ActorRef<?> other);

    /**
     * Spawns a child supervisor (see {@link Supervisor}): its children start now, in order.
     *
     * <pre>{@code
     * Supervisor workers = ctx.spawnSupervisor(SupervisorSpec.builder()
     *         .child(ChildSpec.behavior("worker", worker))
     *         .build());
     * }</pre>
     *
     * @throws IllegalArgumentException if a child's name is taken
     * @throws IllegalStateException    if this actor is stopping
     */
    default Supervisor spawnSupervisor(SupervisorSpec spec) {
        return spawnSupervisor(spec, Props.DEFAULT);
    }

    /**
     * Spawns a child supervisor with {@code props} (only the name applies).
     *
     * <pre>{@code
     * Supervisor workers = ctx.spawnSupervisor(spec, Props.named("workers"));
     * }</pre>
     *
     * @throws IllegalArgumentException if its name or a child's name is taken
     * @throws IllegalStateException    if this actor is stopping
     */
    Supervisor spawnSupervisor(SupervisorSpec spec, Props props);

    /**
     * Links this actor with {@code other}, both ways (Erlang's {@code link}): when either stops,
     * the other gets an exit signal with the reason. An abnormal reason (an exception) kills an
     * actor that does not {@linkplain #trapExits trap exits}, with that same reason, and so on
     * along its own links; a normal stop does not. An actor that traps exits receives an
     * {@link ExitSignal} message instead, for normal stops too. Linking to an actor that has
     * already stopped gives this actor the signal at once, with a {@link NoSuchActorException}
     * (Erlang's {@code noproc}), once per attempt. Linking twice to a live actor is one link;
     * linking to oneself does nothing. A
     * process actor killed this way stops at its next {@code receive}. A link to an actor on
     * another node (gmp4j-cluster) acts the same; the loss of its node is an abnormal exit
     * ("node down"), as Erlang's {@code noconnection}.
     *
     * <pre>{@code
     * ctx.link(partner);   // if partner crashes, so do we
     * }</pre>
     *
     * @throws IllegalArgumentException if {@code other} is not an actor of an actor system
     */
    void link(ActorRef<?> other);

    /**
     * Removes the link with {@code other}, both ways. Once it returns, no exit signal of that
     * link acts on this actor (one already in the mailbox of a trapping actor stays there).
     *
     * <pre>{@code
     * ctx.unlink(partner);
     * }</pre>
     *
     * @throws IllegalArgumentException if {@code other} is not an actor of an actor system
     */
    void unlink(ActorRef<?> other);

    /**
     * Whether exit signals from linked actors arrive as {@link ExitSignal} messages (true)
     * instead of killing this actor on an abnormal reason (false, the default). The actor's
     * message type must accept {@code ExitSignal} (use {@code Object}).
     *
     * <pre>{@code
     * ctx.trapExits(true);
     * ctx.link(worker);   // its death is now a message, not ours
     * }</pre>
     */
    void trapExits(boolean on);

    /**
     * Pipes a channel into this actor (a behaviour actor must not block on a channel): a
     * goroutine receives from {@code ch} and tells this actor {@code onValue(v)} for each value,
     * in the channel's order, and {@code onClose.get()} once the channel is closed and drained
     * ({@code onClose} may be null). It ends when the channel is closed or this actor stops,
     * whichever comes first; a value it took just as the actor stopped becomes a dead letter.
     * The goroutine sends with {@code tell}, so a bounded mailbox with {@link Overflow#BLOCK}
     * holds it back: the channel's producer then meets the backpressure. If {@code onValue},
     * {@code onClose} or the tell throws, the pipe ends and this actor fails with that
     * exception (counted by {@link ActorSystem#failureCount}, seen by its supervisor and
     * watchers), as if its own code had thrown.
     *
     * <pre>{@code
     * Behavior<Event> counter = Behavior.setup(ctx -> {
     *     ctx.pipeFrom(ticks, Tick::new, Done::new);
     *     return (c, e) -> Behavior.same();
     * });
     * }</pre>
     */
    default <V> void pipeFrom(RecvChan<V> ch, Function<? super V, ? extends T> onValue,
                              Supplier<? extends T> onClose) {
        ActorRef<T> self = self();
        RecvChan<Terminated> stopped = system().whenTerminated(self).channel();
        system().runtime().go(() -> {
            try {
                Select s = new Select();
                while (true) {
                    s.reset();
                    int value = s.recv(ch);
                    s.recv(stopped);
                    if (s.select() != value) {
                        return; // this actor stopped
                    }
                    if (!s.ok()) {
                        if (onClose != null) {
                            self.tell(onClose.get());
                        }
                        return;
                    }
                    V v = s.value();
                    self.tell(onValue.apply(v));
                }
            } catch (Throwable t) {
                // onValue, onClose or the tell (a full mailbox that throws) failed: the actor's
                // failure, for its supervisor, not a goroutine panic that would end main
                if (self instanceof ActorCell<?> cell) {
                    cell.pipeFailed(t);
                } else {
                    throw t;
                }
            }
        });
    }

    /**
     * Stops {@code ref} (a child, or this actor itself): the same as {@code ref.stop()}.
     *
     * <pre>{@code
     * ctx.stop(ctx.self());
     * }</pre>
     */
    default void stop(ActorRef<?> ref) {
        ref.stop();
    }
}
