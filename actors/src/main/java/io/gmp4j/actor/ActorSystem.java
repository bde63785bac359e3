package io.gmp4j.actor;

import io.gmp4j.GoRuntime;
import io.gmp4j.chan.Chan;
import io.gmp4j.chan.RecvChan;
import io.gmp4j.runtime.Scheduler;
import io.gmp4j.runtime.ShortLock;
import java.time.Duration;
import java.util.HashMap;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * A group of actors on one gmp4j runtime: spawning top-level actors, the name registry, dead
 * letters, and an orderly shutdown.
 *
 * <pre>{@code
 * try (ActorSystem system = ActorSystem.builder().name("app").maxProcs(2).build()) {
 *     ActorRef<String> greeter = system.spawn((ctx, who) -> {
 *         System.out.println("hello " + who);
 *         return Behavior.same();
 *     }, "greeter");
 *     system.<String>lookup("greeter").ifPresent(g -> g.tell("world"));
 * }   // close(): stops every actor, children before parents, then the runtime's threads
 * }</pre>
 *
 * <p>A system either owns its runtime (built from the builder's settings, closed by
 * {@link #shutdown}) or runs on one it was given ({@link Builder#runtime}), which it leaves
 * running.
 */
public final class ActorSystem implements AutoCloseable {
    /** Messages a behaviour actor handles per run by default. */
    public static final int DEFAULT_THROUGHPUT = 64;

    // Spawning and the name registry are kept here; dead letters and failures by Incidents;
    // the top level, the live count and the shutdown's stop-and-wait by LiveActors.

    private final String name;
    private final GoRuntime runtime;
    private final boolean ownsRuntime;
    private final Scheduler sched;
    private final int throughput;
    private final AtomicLong ids = new AtomicLong();

    private final ShortLock namesLock = new ShortLock();
    private final HashMap<String, ActorCell<?>> names = new HashMap<>();

    /** The top level, the live count and the shutdown's stop-and-wait. */
    private final LiveActors live = new LiveActors();

    /** Dead letters and failures: their counts and listeners. */
    private final Incidents incidents;

    private ActorSystem(String name, GoRuntime runtime, boolean ownsRuntime, int throughput) {
        this.name = name;
        this.runtime = runtime;
        this.ownsRuntime = ownsRuntime;
        this.sched = Scheduler.of(runtime);
        this.throughput = throughput;
        this.incidents = new Incidents(name);
    }

    /**
     * A system named {@code name} with its own runtime (GOMAXPROCS as for
     * {@link GoRuntime#builder()}).
     *
     * <pre>{@code
     * ActorSystem system = ActorSystem.create("app");
     * }</pre>
     */
    public static ActorSystem create(String name) {
        return builder().name(name).build();
    }

    /**
     * A builder.
     *
     * <pre>{@code
     * ActorSystem system = ActorSystem.builder().name("app").maxProcs(4).throughput(32).build();
     * }</pre>
     */
    public static Builder builder() {
        return new Builder();
    }

    // =====================================================================================
    // Spawning and names
    // =====================================================================================

    /**
     * Spawns an anonymous top-level behaviour actor.
     *
     * <pre>{@code
     * ActorRef<String> a = system.spawn((ctx, s) -> Behavior.same());
     * }</pre>
     *
     * @throws IllegalStateException if the system is shutting down
     */
    public <T> ActorRef<T> spawn(Behavior<T> behavior) {
        return spawn(behavior, Props.DEFAULT);
    }

    /**
     * Spawns a top-level behaviour actor registered under {@code name}.
     *
     * <pre>{@code
     * ActorRef<String> a = system.spawn((ctx, s) -> Behavior.same(), "a");
     * }</pre>
     *
     * @throws IllegalArgumentException if the name is taken
     * @throws IllegalStateException    if the system is shutting down
     */
    public <T> ActorRef<T> spawn(Behavior<T> behavior, String name) {
        return spawn(behavior, Props.named(name));
    }

    /**
     * Spawns a top-level behaviour actor with {@code props}.
     *
     * <pre>{@code
     * ActorRef<String> a = system.spawn((ctx, s) -> Behavior.same(), Props.named("a").withThroughput(8));
     * }</pre>
     *
     * @throws IllegalArgumentException if the name is taken
     * @throws IllegalStateException    if the system is shutting down
     */
    public <T> ActorRef<T> spawn(Behavior<T> behavior, Props props) {
        return spawnCell(null, new BehaviorCell<>(this, null, props, behavior));
    }

    /**
     * Spawns an anonymous top-level process actor: {@code body} runs as a goroutine.
     *
     * <pre>{@code
     * ActorRef<String> p = system.spawnProcess(self -> System.out.println(self.receive()));
     * }</pre>
     *
     * @throws IllegalStateException if the system is shutting down
     */
    public <T> ActorRef<T> spawnProcess(ProcessBody<T> body) {
        return spawnProcess(body, Props.DEFAULT);
    }

    /**
     * Spawns a top-level process actor with {@code props} (only the name applies).
     *
     * <pre>{@code
     * ActorRef<String> p = system.spawnProcess(self -> self.receive(), Props.named("p"));
     * }</pre>
     *
     * @throws IllegalArgumentException if the name is taken
     * @throws IllegalStateException    if the system is shutting down
     */
    public <T> ActorRef<T> spawnProcess(ProcessBody<T> body, Props props) {
        return spawnCell(null, new ProcessCell<>(this, null, props, body));
    }

    /**
     * Spawns a top-level supervisor that starts the children of {@code spec} now, in order,
     * and restarts them by its strategy (see {@link SupervisorSpec}).
     *
     * <pre>{@code
     * Supervisor sup = system.spawnSupervisor(SupervisorSpec.builder()
     *         .strategy(SupervisionStrategy.ONE_FOR_ONE)
     *         .child(ChildSpec.behavior("worker", worker))
     *         .build());
     * }</pre>
     *
     * @throws IllegalArgumentException if a child's name is taken
     * @throws IllegalStateException    if the system is shutting down
     */
    public Supervisor spawnSupervisor(SupervisorSpec spec) {
        return spawnSupervisor(spec, Props.DEFAULT);
    }

    /**
     * Spawns a top-level supervisor with {@code props} (only the name applies).
     *
     * <pre>{@code
     * Supervisor sup = system.spawnSupervisor(spec, Props.named("root"));
     * }</pre>
     *
     * @throws IllegalArgumentException if its name or a child's name is taken
     * @throws IllegalStateException    if the system is shutting down
     */
    public Supervisor spawnSupervisor(SupervisorSpec spec, Props props) {
        return Supervisor.spawn(this, null, spec, props);
    }

    /** Registers and starts {@code cell}, a child of {@code parent} (null: top level). */
    <T> ActorRef<T> spawnCell(ActorCell<?> parent, ActorCell<T> cell) {
        attach(parent, cell);
        cell.start();
        return cell;
    }

    /**
     * Registers {@code cell}'s name and adds it to its parent (or the top level), counted as
     * live, without starting it.
     *
     * @throws IllegalArgumentException if the name is taken
     * @throws IllegalStateException    if the parent is stopping or the system shutting down
     */
    void attach(ActorCell<?> parent, ActorCell<?> cell) {
        if (cell.named) {
            register(cell);
        }
        boolean added = parent == null ? live.addTopLevel(cell) : live.addChild(parent, cell);
        if (!added) {
            if (cell.named) {
                unregister(cell.name, cell);
            }
            throw new IllegalStateException(parent == null
                    ? "actor system '" + name + "' is shutting down: cannot spawn"
                    : "actor " + parent.name + " is stopping: cannot spawn a child");
        }
    }

    private void register(ActorCell<?> cell) {
        namesLock.lock();
        try {
            ActorCell<?> old = names.putIfAbsent(cell.name, cell);
            if (old != null) {
                throw new IllegalArgumentException("actor name '" + cell.name + "' is taken by a live actor");
            }
        } finally {
            namesLock.unlock();
        }
    }

    void unregister(String n, ActorCell<?> cell) {
        namesLock.lock();
        try {
            names.remove(n, cell);
        } finally {
            namesLock.unlock();
        }
    }

    /**
     * The live actor registered under {@code name}. Names are freed when their actor has
     * stopped, before its watchers hear of it, so a watcher may register the name again.
     *
     * <pre>{@code
     * system.<String>lookup("log").ifPresent(log -> log.tell("started"));
     * }</pre>
     */
    @SuppressWarnings("unchecked")
    public <T> Optional<ActorRef<T>> lookup(String name) {
        namesLock.lock();
        try {
            return Optional.ofNullable((ActorRef<T>) names.get(name));
        } finally {
            namesLock.unlock();
        }
    }

    /**
     * Sends {@code msg} to {@code ref} without ever blocking or throwing for a full mailbox: for
     * threads that must never wait (an I/O event loop delivering messages from the network). A
     * full bounded mailbox makes the message a {@link DeadLetter} whatever its {@link Overflow}
     * policy, as does a stopped actor. A reference that is not an actor of an ActorSystem (the
     * reply address of an ask) gets a plain {@link ActorRef#tell}, which never blocks for it.
     *
     * <pre>{@code
     * if (!system.tryTell(ref, msg)) { dropped++; }
     * }</pre>
     *
     * @return false if the message became a dead letter
     * @throws NullPointerException if msg is null
     */
    @SuppressWarnings("unchecked")
    public <T> boolean tryTell(ActorRef<T> ref, T msg) {
        if (ref instanceof ActorCell<?> c) {
            return ((ActorCell<T>) c).offer(msg);
        }
        if (ref instanceof ChildRef<?> cr) {
            return ((ActorCell<T>) cr.current()).offer(msg);
        }
        ref.tell(msg);
        return true;
    }

    /**
     * Calls {@code listener} once with a {@link Terminated} when {@code ref} stops, or at once if
     * it has already; returns the same notice as a {@link Reply} a goroutine or thread can wait
     * on (it never times out).
     *
     * <pre>{@code
     * Terminated t = system.whenTerminated(worker).get();
     * }</pre>
     */
    public Reply<Terminated> whenTerminated(ActorRef<?> ref) {
        Reply<Terminated> r = new Reply<>("termination of " + ref.name());
        if (ref instanceof RemoteActorRef<?>) {
            ActorCell.watch(ref, r, t -> r.complete(t, null));
            return r;
        }
        ActorCell<?> c = ActorCell.cellOf(ref, "whenTerminated");
        ActorCell.DeathListener done = t -> r.complete(t, null);
        if (!c.addWatcher(r, done)) {
            // It has finished: done once the watchers it had are told, so that this reply is
            // never done ahead of the notice of a watch made before it.
            c.whenTold(done);
        }
        return r;
    }

    // =====================================================================================
    // Dead letters and failures
    // =====================================================================================

    /** Counts {@code msg}, not delivered to {@code recipient}, and tells the listeners ({@link Incidents}). */
    void deadLetter(Object msg, ActorRef<?> recipient) {
        incidents.deadLetter(msg, recipient);
    }

    /**
     * Messages that could not be delivered so far.
     *
     * <pre>{@code
     * long lost = system.deadLetterCount();
     * }</pre>
     */
    public long deadLetterCount() {
        return incidents.deadLetterCount();
    }

    /**
     * Calls {@code listener} for every dead letter from now on, on the thread that produced it
     * (it must not block). Run the returned handle to unsubscribe.
     *
     * <pre>{@code
     * Runnable unsubscribe = system.onDeadLetter(d -> System.err.println(d));
     * unsubscribe.run();
     * }</pre>
     */
    public Runnable onDeadLetter(Consumer<DeadLetter> listener) {
        return incidents.onDeadLetter(listener);
    }

    /**
     * A channel of dead letters from now on, for a goroutine to range over or select on; holds
     * up to {@code capacity}, dropping (but still counting) those that do not fit.
     *
     * <pre>{@code
     * RecvChan<DeadLetter> dl = system.deadLetters(1024);
     * go(() -> { for (DeadLetter d : dl) System.err.println(d); });
     * }</pre>
     */
    public RecvChan<DeadLetter> deadLetters(int capacity) {
        Chan<DeadLetter> ch = new Chan<>(capacity);
        onDeadLetter(ch::trySend);
        return ch;
    }

    /** Counts {@code cell}'s failure and reports it ({@link Incidents}). */
    void failed(ActorCell<?> cell, Throwable why) {
        incidents.failed(cell, why);
    }

    /**
     * Actors stopped by an exception so far: their own handler or body threw, or (a
     * supervisor) they gave up on restarting their children. An actor killed by a linked
     * actor's failure is not counted again.
     *
     * <pre>{@code
     * long crashes = system.failureCount();
     * }</pre>
     */
    public long failureCount() {
        return incidents.failureCount();
    }

    /**
     * Sets the one listener told of every actor failure (as counted by {@link #failureCount}),
     * on the failing actor's thread, in place
     * of the default report (the stack trace on {@code System.err}); null to restore it.
     *
     * <pre>{@code
     * system.onFailure(t -> System.err.println(t.ref().name() + " failed: " + t.reason()));
     * }</pre>
     */
    public void onFailure(Consumer<Terminated> listener) {
        incidents.onFailure(listener);
    }

    // =====================================================================================
    // Lifecycle
    // =====================================================================================

    /** {@code cell}, a top-level actor, has finished ({@link LiveActors}). */
    void topLevelTerminated(ActorCell<?> cell) {
        live.topLevelTerminated(cell);
    }

    /** Called once per finished actor (and for a spawn that was refused). */
    void actorGone() {
        live.actorGone();
    }

    /**
     * Actors spawned and not yet completely stopped.
     *
     * <pre>{@code
     * long n = system.liveActors();
     * }</pre>
     */
    public long liveActors() {
        return live.count();
    }

    /**
     * Stops every actor (each stops its children before itself), waits up to {@code timeout}
     * for all of them, and then, if this system owns its runtime, closes it, joining its
     * threads. Spawning fails from the start of the call. A process actor stops at its next
     * {@code receive}; one blocked elsewhere for longer than the timeout is left behind (and
     * the result is false). Do not call it from one of the system's own actors or goroutines.
     *
     * <pre>{@code
     * boolean clean = system.shutdown(Duration.ofSeconds(5));
     * }</pre>
     *
     * @return true if every actor stopped in time (and the runtime's threads ended)
     */
    public boolean shutdown(Duration timeout) {
        boolean stopped = live.stopAll(runtime, timeout);
        if (ownsRuntime && !runtime.isClosed()) {
            stopped &= sched.close(Math.max(1, timeout.toMillis()));
        }
        return stopped;
    }

    /**
     * {@link #shutdown(Duration)} with 10 seconds.
     *
     * <pre>{@code
     * try (ActorSystem system = ActorSystem.create("app")) { ... }
     * }</pre>
     */
    @Override
    public void close() {
        shutdown(Duration.ofSeconds(10));
    }

    /**
     * True once {@link #shutdown} has begun.
     *
     * <pre>{@code
     * if (system.isShutDown()) { ... }
     * }</pre>
     */
    public boolean isShutDown() {
        return live.isShutDown();
    }

    /**
     * The runtime the actors run on.
     *
     * <pre>{@code
     * System.out.println(system.runtime().stats());
     * }</pre>
     */
    public GoRuntime runtime() {
        return runtime;
    }

    /**
     * The system's name.
     *
     * <pre>{@code
     * System.out.println(system.name());
     * }</pre>
     */
    public String name() {
        return name;
    }

    Scheduler scheduler() {
        return sched;
    }

    int throughput() {
        return throughput;
    }

    long nextId() {
        return ids.incrementAndGet();
    }

    @Override
    public String toString() {
        return "ActorSystem[" + name + ", " + live.count() + " actors]";
    }

    /**
     * Configures an {@link ActorSystem}.
     *
     * <pre>{@code
     * ActorSystem system = ActorSystem.builder().name("app").maxProcs(2).throughput(16).build();
     * ActorSystem shared = ActorSystem.builder().runtime(GoRuntime.defaultRuntime()).build();
     * }</pre>
     */
    public static final class Builder {
        private String name = "actors";
        private GoRuntime runtime;
        private int maxProcs;
        private int throughput = DEFAULT_THROUGHPUT;

        private Builder() {
        }

        /**
         * The system's name (also its own runtime's thread-name prefix).
         *
         * <pre>{@code
         * ActorSystem.builder().name("app");
         * }</pre>
         */
        public Builder name(String name) {
            this.name = name;
            return this;
        }

        /**
         * Run on {@code rt} instead of a runtime of its own; shutdown leaves it running.
         *
         * <pre>{@code
         * ActorSystem.builder().runtime(GoRuntime.defaultRuntime());
         * }</pre>
         */
        public Builder runtime(GoRuntime rt) {
            this.runtime = rt;
            return this;
        }

        /**
         * GOMAXPROCS of the system's own runtime (ignored with {@link #runtime}).
         *
         * <pre>{@code
         * ActorSystem.builder().maxProcs(2);
         * }</pre>
         */
        public Builder maxProcs(int n) {
            this.maxProcs = n;
            return this;
        }

        /**
         * Messages a behaviour actor handles per run before it gives way (default
         * {@value ActorSystem#DEFAULT_THROUGHPUT}); {@link Props#withThroughput} overrides it
         * per actor.
         *
         * <pre>{@code
         * ActorSystem.builder().throughput(16);
         * }</pre>
         */
        public Builder throughput(int n) {
            if (n < 1) {
                throw new IllegalArgumentException("throughput must be >= 1, got " + n);
            }
            this.throughput = n;
            return this;
        }

        /**
         * Builds the system (starting its runtime if it has its own).
         *
         * <pre>{@code
         * ActorSystem system = ActorSystem.builder().build();
         * }</pre>
         */
        public ActorSystem build() {
            if (runtime != null) {
                return new ActorSystem(name, runtime, false, throughput);
            }
            GoRuntime.Builder b = GoRuntime.builder().name(name);
            if (maxProcs > 0) {
                b.maxProcs(maxProcs);
            }
            return new ActorSystem(name, b.build(), true, throughput);
        }
    }
}
