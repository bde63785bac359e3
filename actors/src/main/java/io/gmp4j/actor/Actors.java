package io.gmp4j.actor;

import io.gmp4j.GoRuntime;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Static entry points on a process-wide default {@link ActorSystem} that runs on the default
 * gmp4j runtime (started on first use, never shut down), for programs and scripts that need
 * one system only.
 *
 * <pre>{@code
 * ActorRef<String> echo = Actors.spawnProcess(self -> {
 *     while (true) {
 *         System.out.println(self.receive());
 *     }
 * });
 * echo.tell("hi");
 * }</pre>
 */
public final class Actors {
    private static final AtomicReference<ActorSystem> DEFAULT = new AtomicReference<>();

    private Actors() {
    }

    /**
     * The default system, on {@link GoRuntime#defaultRuntime()}.
     *
     * <pre>{@code
     * long dead = Actors.system().deadLetterCount();
     * }</pre>
     */
    public static ActorSystem system() {
        ActorSystem s = DEFAULT.get();
        if (s == null) {
            // A system on a runtime it does not own starts no thread: a loser's copy is garbage.
            ActorSystem mine = ActorSystem.builder().name("actors").runtime(GoRuntime.defaultRuntime()).build();
            s = DEFAULT.compareAndExchange(null, mine);
            if (s == null) {
                s = mine;
            }
        }
        return s;
    }

    /**
     * Spawns a behaviour actor in the default system.
     *
     * <pre>{@code
     * ActorRef<String> a = Actors.spawn((ctx, s) -> Behavior.same());
     * }</pre>
     */
    public static <T> ActorRef<T> spawn(Behavior<T> behavior) {
        return system().spawn(behavior);
    }

    /**
     * Spawns a process actor (a goroutine running {@code body}) in the default system.
     *
     * <pre>{@code
     * ActorRef<Object> p = Actors.spawnProcess(self -> System.out.println(self.receive()));
     * }</pre>
     */
    public static <T> ActorRef<T> spawnProcess(ProcessBody<T> body) {
        return system().spawnProcess(body);
    }
}
