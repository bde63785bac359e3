package io.gmp4j.actor;

import java.util.Objects;

/**
 * One child of a supervisor (OTP's child specification): an id unique within the supervisor,
 * what to start (a behaviour actor, a process actor or a nested supervisor), when to restart
 * it ({@link Restart}, default {@link Restart#PERMANENT}) and its {@link Props} (a registered
 * name, the mailbox, the throughput), applied to every incarnation.
 *
 * <p>Each start spawns a new incarnation from the same behaviour or body, so the state an
 * actor builds in {@link Behavior#setup} or in its body starts afresh on a restart; a
 * registered name is freed by the dead incarnation before the supervisor hears of its death,
 * so the next one takes it again.
 *
 * <pre>{@code
 * ChildSpec<Job> worker = ChildSpec.behavior("worker", jobHandler)
 *         .withRestart(Restart.TRANSIENT)
 *         .withProps(Props.named("worker").withMailbox(100, Overflow.FAIL));
 * ChildSpec<Object> poller = ChildSpec.process("poller", self -> { while (true) poll(self.receive()); });
 * }</pre>
 *
 * @param <T> the child's message type
 */
public final class ChildSpec<T> {
    /** Spawns one incarnation of a child, started, as a child of {@code parent}. */
    @FunctionalInterface
    interface Starter<T> {
        ActorCell<T> start(ActorSystem system, ActorCell<?> parent, Props props);
    }

    private final String id;
    private final Restart restart;
    private final Props props;
    private final Starter<T> starter;

    private ChildSpec(String id, Restart restart, Props props, Starter<T> starter) {
        if (id == null || id.isEmpty()) {
            throw new IllegalArgumentException("a child spec needs a non-empty id");
        }
        this.id = id;
        this.restart = Objects.requireNonNull(restart, "restart");
        this.props = Objects.requireNonNull(props, "props");
        this.starter = starter;
    }

    /**
     * A behaviour actor child.
     *
     * <pre>{@code
     * ChildSpec<String> log = ChildSpec.behavior("log", (ctx, s) -> Behavior.same());
     * }</pre>
     */
    public static <T> ChildSpec<T> behavior(String id, Behavior<T> behavior) {
        Objects.requireNonNull(behavior, "behavior");
        return new ChildSpec<>(id, Restart.PERMANENT, Props.DEFAULT,
                (system, parent, props) -> (ActorCell<T>) system.spawnCell(parent,
                        new BehaviorCell<>(system, parent, props, behavior)));
    }

    /**
     * A process actor child: {@code body} runs as a goroutine, again from the start on each
     * restart.
     *
     * <pre>{@code
     * ChildSpec<Object> p = ChildSpec.process("p", self -> { while (true) self.receive(); });
     * }</pre>
     */
    public static <T> ChildSpec<T> process(String id, ProcessBody<T> body) {
        Objects.requireNonNull(body, "body");
        return new ChildSpec<>(id, Restart.PERMANENT, Props.DEFAULT,
                (system, parent, props) -> (ActorCell<T>) system.spawnCell(parent,
                        new ProcessCell<>(system, parent, props, body)));
    }

    /**
     * A nested supervisor: a subtree that this supervisor restarts as a whole when it gives up
     * ({@link RestartLimitExceededException}). Its reference accepts no message; its children
     * are reached by their registered names ({@link ActorSystem#lookup}).
     *
     * <pre>{@code
     * ChildSpec<Void> workers = ChildSpec.supervisor("workers", workersSpec);
     * }</pre>
     */
    public static ChildSpec<Void> supervisor(String id, SupervisorSpec spec) {
        Objects.requireNonNull(spec, "spec");
        return new ChildSpec<>(id, Restart.PERMANENT, Props.DEFAULT, (system, parent, props) -> {
            @SuppressWarnings("unchecked")
            ActorCell<Void> c = (ActorCell<Void>) (ActorCell<?>) Supervisor.spawn(system, parent, spec, props).cell;
            return c;
        });
    }

    /**
     * This spec with another restart type.
     *
     * <pre>{@code
     * ChildSpec<String> once = ChildSpec.behavior("once", b).withRestart(Restart.TEMPORARY);
     * }</pre>
     */
    public ChildSpec<T> withRestart(Restart restart) {
        return new ChildSpec<>(id, restart, props, starter);
    }

    /**
     * This spec with {@code props} for every incarnation (a process actor or a supervisor
     * uses only the name).
     *
     * <pre>{@code
     * ChildSpec<String> log = ChildSpec.behavior("log", b).withProps(Props.named("log"));
     * }</pre>
     */
    public ChildSpec<T> withProps(Props props) {
        return new ChildSpec<>(id, restart, props, starter);
    }

    /**
     * The id, unique within its supervisor.
     *
     * <pre>{@code
     * ActorRef<?> ref = sup.child(spec.id());
     * }</pre>
     */
    public String id() {
        return id;
    }

    /**
     * The restart type.
     *
     * <pre>{@code
     * boolean always = spec.restart() == Restart.PERMANENT;
     * }</pre>
     */
    public Restart restart() {
        return restart;
    }

    /**
     * The props of every incarnation.
     *
     * <pre>{@code
     * String registered = spec.props().name();
     * }</pre>
     */
    public Props props() {
        return props;
    }

    /** Spawns one incarnation under {@code parent}; throws what spawning throws. */
    ActorCell<T> start(ActorSystem system, ActorCell<?> parent) {
        return starter.start(system, parent, props);
    }

    @Override
    public String toString() {
        return "ChildSpec[" + id + ", " + restart + "]";
    }
}
