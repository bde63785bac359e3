package io.gmp4j.actor;

/**
 * Options for spawning an actor: an optional registered name and the behaviour actor's
 * throughput (messages handled per run before it gives way to other tasks on its P).
 *
 * <pre>{@code
 * ActorRef<String> log = system.spawn(logger, Props.named("log").withThroughput(16));
 * }</pre>
 *
 * @param name       the name to register, or null for an anonymous actor
 * @param throughput messages a behaviour actor handles per run, at least 1; 0 for the system's
 *                   default ({@link ActorSystem.Builder#throughput})
 */
public record Props(String name, int throughput) {
    /** No name, the system's default throughput. */
    public static final Props DEFAULT = new Props(null, 0);

    /**
     * Validates the values.
     *
     * @throws IllegalArgumentException if throughput is negative or the name is empty
     */
    public Props {
        if (throughput < 0) {
            throw new IllegalArgumentException("throughput must be >= 1 (or 0 for the default), got " + throughput);
        }
        if (name != null && name.isEmpty()) {
            throw new IllegalArgumentException("an actor name must not be empty");
        }
    }

    /** Props with a registered name and the default throughput. */
    public static Props named(String name) {
        return new Props(name, 0);
    }

    /** These props with another throughput (>= 1). */
    public Props withThroughput(int throughput) {
        if (throughput < 1) {
            throw new IllegalArgumentException("throughput must be >= 1, got " + throughput);
        }
        return new Props(name, throughput);
    }
}
