package io.gmp4j.actor;

import java.util.Objects;

/**
 * Options for spawning an actor: an optional registered name, the behaviour actor's throughput
 * (messages handled per run before it gives way to other tasks on its P), and the mailbox:
 * unbounded (the default) or bounded with an {@link Overflow} policy.
 *
 * <pre>{@code
 * ActorRef<String> log = system.spawn(logger, Props.named("log").withThroughput(16));
 * ActorRef<Job> worker = system.spawn(handler, Props.DEFAULT.withMailbox(64, Overflow.BLOCK));
 * }</pre>
 *
 * @param name       the name to register, or null for an anonymous actor
 * @param throughput messages a behaviour actor handles per run, at least 1; 0 for the system's
 *                   default ({@link ActorSystem.Builder#throughput})
 * @param capacity   the most messages the mailbox holds, at least 1; 0 for unbounded
 * @param overflow   what a full bounded mailbox does with a message; ignored when unbounded
 */
public record Props(String name, int throughput, int capacity, Overflow overflow) {
    /** No name, the system's default throughput, an unbounded mailbox. */
    public static final Props DEFAULT = new Props(null, 0);

    /**
     * Validates the values.
     *
     * @throws IllegalArgumentException if throughput or capacity is negative or the name is empty
     */
    public Props {
        if (throughput < 0) {
            throw new IllegalArgumentException("throughput must be >= 1 (or 0 for the default), got " + throughput);
        }
        if (capacity < 0) {
            throw new IllegalArgumentException("mailbox capacity must be >= 1 (or 0 for unbounded), got " + capacity);
        }
        if (name != null && name.isEmpty()) {
            throw new IllegalArgumentException("an actor name must not be empty");
        }
        Objects.requireNonNull(overflow, "overflow");
    }

    /** Props with a name (or null) and a throughput (or 0), and an unbounded mailbox. */
    public Props(String name, int throughput) {
        this(name, throughput, 0, Overflow.FAIL);
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
        return new Props(name, throughput, capacity, overflow);
    }

    /**
     * These props with a bounded mailbox of {@code capacity} messages (>= 1) and what to do with
     * a message told while it is full. A message counts from the moment {@code tell} takes its
     * place until the actor takes it out (a process actor's selective receive that passes over
     * a message frees its place too).
     */
    public Props withMailbox(int capacity, Overflow overflow) {
        if (capacity < 1) {
            throw new IllegalArgumentException("mailbox capacity must be >= 1, got " + capacity);
        }
        return new Props(name, throughput, capacity, Objects.requireNonNull(overflow, "overflow"));
    }

    /** These props with an unbounded mailbox (the default). */
    public Props withUnboundedMailbox() {
        return new Props(name, throughput, 0, Overflow.FAIL);
    }
}
