package io.gmp4j.bench.remote;

import java.util.List;

/**
 * The messages of the remote benchmarks. The data messages ({@link Ping}, {@link Pong},
 * {@link Data}, {@link Ack}, {@link Done}) are the same records for both implementations and
 * carry no actor reference: gmp4j encodes them with its wire codec (allow-listed records),
 * Pekko with {@link PekkoWire}, and Pekko's data tells name no sender
 * ({@code ActorRef.noSender()}), so neither side ships a reference per message. References travel
 * only in the set-up messages, one record per implementation ({@code G*} holds gmp4j refs,
 * {@code P*} Pekko refs).
 */
public final class RemoteMsgs {
    private RemoteMsgs() {
    }

    /** Round trip {@code seq} of remote-pingpong, driver to peer. */
    public record Ping(long seq) {
    }

    /** The answer to {@link Ping} {@code seq}, peer to driver. */
    public record Pong(long seq) {
    }

    /** Message {@code seq} (from 0, consecutive) of sender {@code sender}, driver to peer. */
    public record Data(int sender, long seq) {
    }

    /** The receiver has {@code received} messages of sender {@code sender} (its flow-control credit). */
    public record Ack(int sender, long received) {
    }

    /**
     * The receiver got {@code received} messages of the run; {@code errors} counts those that
     * were not their sender's next in sequence (a loss, a duplicate or a reordering).
     */
    public record Done(long received, long errors) {
    }

    /** The receiver's answer to a start: its tally is reset and it waits for the data. */
    public record Ready(long total) {
    }

    /** gmp4j: the pinger to answer from now on. */
    public record GHello(io.gmp4j.actor.ActorRef<Object> replyTo) {
    }

    /** gmp4j: a throughput run of {@code total} messages from {@code senders} (index = sender id). */
    public record GStart(long total, List<io.gmp4j.actor.ActorRef<Object>> senders,
                         io.gmp4j.actor.ActorRef<Object> doneTo) {
    }

    /** Pekko: the pinger to answer from now on. */
    public record PHello(org.apache.pekko.actor.ActorRef replyTo) {
    }

    /** Pekko: a throughput run of {@code total} messages from {@code senders} (index = sender id). */
    public record PStart(long total, List<org.apache.pekko.actor.ActorRef> senders,
                         org.apache.pekko.actor.ActorRef doneTo) {
    }

    /** The gmp4j records every node must allow. */
    static final Class<?>[] GMP4J_TYPES = {Ping.class, Pong.class, Data.class, Ack.class, Done.class, Ready.class,
            GHello.class, GStart.class};
}
