package io.gmp4j.actor;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A running supervisor (Erlang/OTP's): an actor that started the children of its
 * {@link SupervisorSpec} and restarts them by its strategy, restart types and intensity. Get
 * one from {@link ActorSystem#spawnSupervisor} or {@link ActorContext#spawnSupervisor}.
 *
 * <pre>{@code
 * ChildSpec<Job> worker = ChildSpec.behavior("worker", jobHandler);
 * Supervisor sup = system.spawnSupervisor(SupervisorSpec.builder()
 *         .strategy(SupervisionStrategy.ONE_FOR_ONE)
 *         .intensity(3, Duration.ofSeconds(5))
 *         .child(worker)
 *         .build());
 * ActorRef<Job> w = sup.child(worker);    // stable: the same ref before and after restarts
 * w.tell(new Job(1));
 * }</pre>
 *
 * <h2>Stable child references</h2>
 * {@link #child(ChildSpec)} returns one reference per child for the supervisor's lifetime. It
 * forwards to the child's current incarnation; a restart replaces the incarnation behind it.
 * We chose this over OTP's "look the new pid up by name" because it needs no name and cannot
 * race with the registry; registered names ({@link ChildSpec#withProps}) still work, and
 * {@link ActorSystem#lookup} returns the current incarnation itself. Messages sent while a child
 * is dead and not yet restarted are dead letters.
 *
 * <h2>How it works</h2>
 * The supervisor is a process actor (a goroutine) whose children are its children in the actor
 * tree. It watches each incarnation; an exit arrives as a system message, and the goroutine
 * handles exits one at a time, in arrival order. To stop children (for a one-for-all or
 * rest-for-one restart, or when the supervisor itself stops) it stops one, waits for its exit,
 * then the next, in reverse start order; a child's exit that was already on its way is taken
 * as that wait and not counted as a restart. Children start in spec order, synchronously in
 * {@code spawnSupervisor}, so every child is running (or has been started) when it returns.
 *
 * <h2>Stopping</h2>
 * Stopping the supervisor (its {@link #stop}, its parent stopping, the system shutting down)
 * stops its children in reverse start order, each waited for, then the supervisor. A child
 * that never finishes (a process actor blocked forever outside {@code receive}) holds its
 * supervisor up, as in OTP with an infinite shutdown time.
 */
public final class Supervisor {
    final ProcessCell<Object> cell;
    private final Map<String, ChildRef<?>> children;

    private Supervisor(ProcessCell<Object> cell, Map<String, ChildRef<?>> children) {
        this.cell = cell;
        this.children = children;
    }

    /**
     * Spawns a supervisor under {@code parent} (null: top level) and starts its children, in
     * order, before returning. If a child cannot start (say its name is taken), those started
     * stop in reverse order, the supervisor stops, and the exception is thrown here.
     */
    static Supervisor spawn(ActorSystem system, ActorCell<?> parent, SupervisorSpec spec, Props props) {
        Objects.requireNonNull(spec, "spec");
        SupervisorProcess body = new SupervisorProcess(system, spec);
        ProcessCell<Object> cell = new ProcessCell<>(system, parent, props, body);
        body.cell = cell;
        system.attach(parent, cell);
        RuntimeException failure = null;
        try {
            body.startAll();
        } catch (RuntimeException e) {
            failure = e;
            body.startFailed = true; // its goroutine stops those started, then ends normally
        }
        cell.start();
        if (failure != null) {
            throw failure;
        }
        LinkedHashMap<String, ChildRef<?>> refs = new LinkedHashMap<>();
        for (SupervisorProcess.Slot<?> s : body.slots) {
            refs.put(s.spec.id(), s.ref);
        }
        return new Supervisor(cell, refs);
    }

    /**
     * The stable reference of the child of {@code spec} (the spec this supervisor was built
     * with, or one with the same id).
     *
     * <pre>{@code
     * ActorRef<Job> w = sup.child(worker);
     * }</pre>
     *
     * @throws IllegalArgumentException if the supervisor has no child with that id
     */
    @SuppressWarnings("unchecked")
    public <T> ActorRef<T> child(ChildSpec<T> spec) {
        return (ActorRef<T>) child(spec.id());
    }

    /**
     * The stable reference of the child with {@code id}.
     *
     * <pre>{@code
     * ActorRef<?> w = sup.child("worker");
     * }</pre>
     *
     * @throws IllegalArgumentException if the supervisor has no child with that id
     */
    public ActorRef<?> child(String id) {
        ChildRef<?> r = children.get(id);
        if (r == null) {
            throw new IllegalArgumentException("supervisor " + cell.name + " has no child '" + id + "'");
        }
        return r;
    }

    /**
     * The supervisor's own reference, to watch it, link to it or stop it. It accepts no message.
     *
     * <pre>{@code
     * Terminated t = system.whenTerminated(sup.ref()).get();
     * }</pre>
     */
    @SuppressWarnings("unchecked")
    public ActorRef<Void> ref() {
        return (ActorRef<Void>) (ActorRef<?>) cell;
    }

    /**
     * Stops the supervisor: its children in reverse start order, then itself. Does not wait.
     *
     * <pre>{@code
     * sup.stop();
     * }</pre>
     */
    public void stop() {
        cell.stop();
    }

    /**
     * False once the supervisor has stopped completely.
     *
     * <pre>{@code
     * if (!sup.isAlive()) { ... }
     * }</pre>
     */
    public boolean isAlive() {
        return cell.isAlive();
    }

    /**
     * The supervisor's name: the registered one, or a generated {@code $<id>}.
     *
     * <pre>{@code
     * System.out.println(sup.name());
     * }</pre>
     */
    public String name() {
        return cell.name;
    }

    @Override
    public String toString() {
        return "Supervisor[" + cell.name + ", children " + children.keySet() + "]";
    }
}
