package io.gmp4j.cluster;

import io.gmp4j.actor.ActorRef;

/**
 * A change of the cluster-wide names, as {@link ClusterNode#subscribeNames} reports it.
 *
 * <pre>{@code
 * ActorRef<NameEvent> watcher = system.spawn((ctx, e) -> {
 *     switch (e) {
 *         case NameEvent.Registered r -> System.out.println(r.name() + " is " + r.ref());
 *         case NameEvent.Unregistered u -> System.out.println(u.name() + " is gone");
 *     }
 *     return Behavior.same();
 * });
 * node.subscribeNames("room.", watcher);
 * }</pre>
 */
public sealed interface NameEvent {
    /** The name, as registered. */
    String name();

    /**
     * {@code name} is registered to {@code ref} (a local ref if the actor is on this node). A
     * name may be reported registered again; the later report replaces the earlier.
     *
     * @param name the name
     * @param ref  the actor registered under it
     */
    record Registered(String name, ActorRef<?> ref) implements NameEvent {
    }

    /**
     * {@code name} is no longer registered: its actor stopped, its node closed, or its node left.
     *
     * @param name the name
     */
    record Unregistered(String name) implements NameEvent {
    }
}
