package io.gmp4j.cluster;

import io.gmp4j.actor.ActorRef;

/** The messages the cluster tests send between JVMs; both nodes allow {@link #ALL}. */
final class Msgs {
    private Msgs() {
    }

    /** Answers {@code text} to {@code replyTo}. */
    record Echo(String text, ActorRef<String> replyTo) {
    }

    /** Tells {@code to} the upper-cased {@code text}: a reference inside a message, used remotely. */
    record Forward(String text, ActorRef<String> to) {
    }

    /** One message of an ordered stream from {@code sender}. */
    record Count(String sender, int seq) {
    }

    /** Asks the counter what it saw from {@code sender}. */
    record CountReport(String sender, ActorRef<Counted> replyTo) {
    }

    /** In-order messages, out-of-order (or duplicated) ones, the last seq. */
    record Counted(long inOrder, long outOfOrder, int last) {
    }

    /** Asks the thread the actor's handler runs on. */
    record WhereAmI(ActorRef<Where> replyTo) {
    }

    /** The handler's thread name and whether it runs on a gmp4j M. */
    record Where(String thread, boolean onM) {
    }

    /** Asks the child node for its gadget traces and counters. */
    record Probe(ActorRef<Probed> replyTo) {
    }

    /** Whether the gadget's static initializer or constructor ran, and the node's refused count. */
    record Probed(String initialized, String constructed, long refused, long delivered) {
    }

    /** Tells {@code to} the message {@code msg}: a third node's actor reached through this one. */
    record Relay(ActorRef<Object> to, Object msg) {
    }

    /**
     * Spawns a victim registered cluster-wide as {@code name}: it answers an {@link Echo}, throws
     * on "crash", stops on "stop". Answers "spawned".
     */
    record Spawn(String name, ActorRef<String> replyTo) {
    }

    /** Spawns an actor that watches {@code target} and tells {@code reportTo} a {@link Down}. */
    record WatchFor(ActorRef<Object> target, ActorRef<Object> reportTo) {
    }

    /** A watch's end as the watcher saw it: the reason's kind and message. */
    record Down(String target, String reason, String message) {
    }

    /** Spawns an actor registered as {@code name} linked to {@code target} (not trapping). Answers "linked". */
    record LinkFor(String name, ActorRef<Object> target, ActorRef<String> replyTo) {
    }

    /** Sends {@link Count}s as {@code sender} to {@code counter} from a thread for {@code millis}, then answers {@link Sent}. */
    record BlastFor(String sender, ActorRef<Object> counter, long millis, ActorRef<Object> replyTo) {
    }

    /** How many messages a blast sent. */
    record Sent(String sender, long n) {
    }

    /** A {@link Count} with a payload: fills sockets quickly. */
    record Padded(String sender, int seq, byte[] pad) {
    }

    static final Class<?>[] ALL = {Padded.class, Echo.class, Forward.class, Count.class, CountReport.class, Counted.class,
            WhereAmI.class, Where.class, Probe.class, Probed.class, Relay.class, Spawn.class, WatchFor.class,
            Down.class, LinkFor.class, BlastFor.class, Sent.class};

    /** The reason of a watch's end as a {@link Down} names it: the remote class, "node down", or the local class. */
    static String reasonKind(Throwable t) {
        return switch (t) {
            case null -> "normal";
            case RemoteActorException r -> "remote " + r.remoteClassName();
            case NodeDownException n -> "node down";
            default -> t.getClass().getSimpleName();
        };
    }
}
