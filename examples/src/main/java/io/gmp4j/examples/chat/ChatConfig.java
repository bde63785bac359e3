package io.gmp4j.examples.chat;

import java.time.Duration;
import java.util.Objects;

/**
 * A {@link ChatServer}'s limits and its policy for slow clients ({@link SlowPolicy}), as the
 * {@code ./gmp4j run chat} flags set them; checked when built.
 *
 * @param maxClients connections served at once; one more is told "server full"
 * @param maxLine    the longest line accepted, in bytes
 * @param idle       how long a client may send nothing; zero or negative: no limit
 * @param queue      lines queued per client before it counts as slow
 * @param grace      how long clients have to close after the goodbye at shutdown
 * @param slowPolicy what happens to a client whose queue is full
 */
public record ChatConfig(int maxClients, int maxLine, Duration idle, int queue, Duration grace, SlowPolicy slowPolicy) {
    /**
     * What the hub does when a client's outbound channel is full (see "Slow clients" in
     * {@link ChatServer}).
     */
    public enum SlowPolicy {
        /** Close the connection and tell the client's room it was too slow. */
        DISCONNECT,
        /** Keep the client, drop its lines while its channel is full, then tell it how many. */
        DROP;

        /**
         * The policy named {@code name} ({@code disconnect} or {@code drop}, any case), as the
         * {@code --slow-policy} flag takes it.
         *
         * @throws IllegalArgumentException naming the accepted values when it is neither
         */
        public static SlowPolicy parse(String name) {
            for (SlowPolicy p : values()) {
                if (p.name().equalsIgnoreCase(name)) {
                    return p;
                }
            }
            throw new IllegalArgumentException("slow policy must be disconnect or drop, not '" + name + "'");
        }
    }

    /** Checks the limits. */
    public ChatConfig {
        if (maxClients < 1 || maxLine < 1 || queue < 1) {
            throw new IllegalArgumentException("maxClients, maxLine and queue must be >= 1");
        }
        Objects.requireNonNull(idle, "idle");
        Objects.requireNonNull(grace, "grace");
        Objects.requireNonNull(slowPolicy, "slowPolicy");
    }

    /** The limits with {@link SlowPolicy#DISCONNECT} for slow clients. */
    public ChatConfig(int maxClients, int maxLine, Duration idle, int queue, Duration grace) {
        this(maxClients, maxLine, idle, queue, grace, SlowPolicy.DISCONNECT);
    }

    /**
     * 1000 clients, 1 KiB lines, 5 minutes idle, 1024 queued lines, 2 s to say goodbye,
     * slow clients disconnected.
     */
    public static ChatConfig defaults() {
        return new ChatConfig(1000, 1024, Duration.ofMinutes(5), 1024, Duration.ofSeconds(2), SlowPolicy.DISCONNECT);
    }

    /** This config with at most {@code n} clients. */
    public ChatConfig withMaxClients(int n) {
        return new ChatConfig(n, maxLine, idle, queue, grace, slowPolicy);
    }

    /** This config with lines of at most {@code n} bytes. */
    public ChatConfig withMaxLine(int n) {
        return new ChatConfig(maxClients, n, idle, queue, grace, slowPolicy);
    }

    /** This config with idle timeout {@code d}; zero or negative: no idle timeout. */
    public ChatConfig withIdle(Duration d) {
        return new ChatConfig(maxClients, maxLine, d, queue, grace, slowPolicy);
    }

    /** This config with {@code n} lines queued per client. */
    public ChatConfig withQueue(int n) {
        return new ChatConfig(maxClients, maxLine, idle, n, grace, slowPolicy);
    }

    /** This config with {@code p} for clients whose queue is full. */
    public ChatConfig withSlowPolicy(SlowPolicy p) {
        return new ChatConfig(maxClients, maxLine, idle, queue, grace, p);
    }

    /** 5m, 30s, 300ms, as the {@code --idle} flag takes them. */
    static String human(Duration d) {
        long ms = d.toMillis();
        if (ms % 60_000 == 0 && ms > 0) {
            return ms / 60_000 + "m";
        }
        return ms % 1000 == 0 ? ms / 1000 + "s" : ms + "ms";
    }
}
