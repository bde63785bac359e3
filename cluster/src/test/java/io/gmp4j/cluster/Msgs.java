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

    static final Class<?>[] ALL = {Echo.class, Forward.class, Count.class, CountReport.class, Counted.class,
            WhereAmI.class, Where.class, Probe.class, Probed.class};
}
