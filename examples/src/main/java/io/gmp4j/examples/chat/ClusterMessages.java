package io.gmp4j.examples.chat;

import io.gmp4j.actor.ActorRef;
import java.util.List;

/**
 * What chat nodes tell each other's bridges ({@link ClusterBridge}). Every message names the
 * node it comes from ({@code node}, its cluster node id) and is about that node's own users
 * only; a line to show is sent as the origin formatted it, so every node shows the same text.
 * Per sending and receiving node the messages arrive in the order sent (the cluster's per-pair
 * FIFO): a {@link Snapshot} first, then the changes after it.
 */
final class ClusterMessages {
    /** The records allowed on the wire: {@code ClusterConfig.Builder.allow(TYPES)} on every node. */
    static final Class<?>[] TYPES = {Member.class, Snapshot.class, Moved.class, Renamed.class, Said.class, Private.class};

    private ClusterMessages() {
    }

    /** A logged-in user and its room. */
    record Member(String nick, String room) {
    }

    /**
     * All of {@code node}'s users now; replaces what the receiver knew of them. {@code bridge}
     * is the sender's bridge, so a receiver that had not found the sender yet can answer.
     */
    record Snapshot(String node, ActorRef<Object> bridge, List<Member> users) {
    }

    /**
     * {@code nick} is now in {@code room} (null: in none, it left or logged out); {@code line}
     * is shown to the receiver's members of {@code showIn}.
     */
    record Moved(String node, String nick, String room, String showIn, String line) {
    }

    /** {@code old} is now called {@code nick}, in {@code room}, whose members are shown {@code line}. */
    record Renamed(String node, String old, String nick, String room, String line) {
    }

    /** A user's {@code line} to {@code room}: every receiver shows it to its members of the room. */
    record Said(String node, String room, String line) {
    }

    /** {@code line} for the receiver's user {@code to} (lower case), a private message. */
    record Private(String node, String to, String line) {
    }
}
