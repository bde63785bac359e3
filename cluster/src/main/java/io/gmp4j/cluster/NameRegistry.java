package io.gmp4j.cluster;

import com.hazelcast.core.EntryEvent;
import com.hazelcast.map.IMap;
import com.hazelcast.map.listener.EntryAddedListener;
import com.hazelcast.map.listener.EntryEvictedListener;
import com.hazelcast.map.listener.EntryExpiredListener;
import com.hazelcast.map.listener.EntryRemovedListener;
import com.hazelcast.map.listener.EntryUpdatedListener;
import io.gmp4j.actor.ActorRef;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Cluster-wide names: a Hazelcast map from name to {@code nodeId|key|actorName}. A node removes
 * its names when their actors stop and when it closes; the survivors remove a departed node's.
 * Conditional removes ({@code remove(name, value)}) keep a name someone registered again.
 * Subscriptions ({@link #subscribe}) are Hazelcast entry listeners, one per subscriber.
 */
final class NameRegistry {
    static final String MAP_NAME = "gmp4j.names";

    private final ClusterNode node;
    private final IMap<String, String> map;
    /** The names this node registered, with their values. */
    private final Map<String, String> mine = new ConcurrentHashMap<>();
    /** The entry listener of each subscription, by its registration id. */
    private final Map<UUID, Subscription> subscriptions = new ConcurrentHashMap<>();

    NameRegistry(ClusterNode node, IMap<String, String> map) {
        this.node = node;
        this.map = map;
    }

    void register(String name, ActorRef<?> ref, long key) {
        String value = node.nodeId() + "|" + key + "|" + ref.name();
        String prev = map.putIfAbsent(name, value);
        if (prev != null && !prev.equals(value)) {
            throw new IllegalStateException("register: the name '" + name + "' is already registered cluster-wide, to "
                    + prev.substring(prev.lastIndexOf('|') + 1) + " on node " + prev.substring(0, prev.indexOf('|')));
        }
        mine.put(name, value);
        try {
            // Runs at once if the actor has already stopped: the name then goes again at once.
            node.system().whenTerminated(ref).whenComplete((t, f) -> node.offload(() -> unregister(name, value)));
        } catch (IllegalArgumentException e) {
            unregister(name, value);
            throw new IllegalArgumentException("register: " + ref + " is not an actor of an ActorSystem", e);
        }
    }

    private void unregister(String name, String value) {
        mine.remove(name, value);
        map.remove(name, value);
    }

    /** The {@code nodeId|key|actorName} under {@code name}, if any. */
    Optional<String[]> lookup(String name) {
        String v = map.get(name);
        return v == null ? Optional.empty() : Optional.of(v.split("\\|", 3));
    }

    /**
     * Removes the names of nodes not in {@code members} (Vert.x node ids): those that have left.
     * A node is a member before it can register a name, so a live node's names always stay.
     */
    void removeDeparted(java.util.Collection<String> members) {
        for (Map.Entry<String, String> e : map.entrySet()) {
            String v = e.getValue();
            int bar = v.indexOf('|');
            if (bar < 0 || !members.contains(v.substring(0, bar))) {
                map.remove(e.getKey(), v);
            }
        }
    }

    /**
     * Subscribes {@code subscriber} to the names starting with {@code prefix}: the listener goes
     * on first, then the current names are read; events that arrive while they are read wait
     * and follow them, so every change after the read is applied after it (a name may be
     * reported registered twice, never left stale).
     */
    void subscribe(String prefix, ActorRef<?> subscriber) {
        Subscription sub = new Subscription(prefix, subscriber);
        UUID id = map.addEntryListener(sub, true);
        subscriptions.put(id, sub);
        List<Map.Entry<String, String>> now = new ArrayList<>();
        for (Map.Entry<String, String> e : map.entrySet()) {
            if (e.getKey().startsWith(prefix)) {
                now.add(Map.entry(e.getKey(), e.getValue()));
            }
        }
        sub.started(now);
        try {
            node.system().whenTerminated(subscriber).whenComplete((t, f) -> node.offload(() -> unsubscribe(id)));
        } catch (IllegalArgumentException e) {
            unsubscribe(id);
            throw new IllegalArgumentException("subscribeNames: " + subscriber + " is not an actor of an ActorSystem", e);
        }
    }

    private void unsubscribe(UUID id) {
        if (subscriptions.remove(id) != null) {
            map.removeEntryListener(id);
        }
    }

    /** Ends every subscription (closing). */
    void unsubscribeAll() {
        for (UUID id : subscriptions.keySet()) {
            try {
                unsubscribe(id);
            } catch (RuntimeException e) {
                subscriptions.remove(id); // Hazelcast is going down: the listener goes with it
            }
        }
    }

    /** One subscriber's listener; Hazelcast calls it on its event threads. */
    private final class Subscription implements EntryAddedListener<String, String>, EntryUpdatedListener<String, String>,
            EntryRemovedListener<String, String>, EntryEvictedListener<String, String>, EntryExpiredListener<String, String> {
        private final String prefix;
        private final ActorRef<?> subscriber;
        /** Events that came before the current names were delivered; null once they were. Guarded by this. */
        private List<NameEvent> early = new ArrayList<>();

        Subscription(String prefix, ActorRef<?> subscriber) {
            this.prefix = prefix;
            this.subscriber = subscriber;
        }

        synchronized void started(List<Map.Entry<String, String>> now) {
            for (Map.Entry<String, String> e : now) {
                registered(e.getKey(), e.getValue());
            }
            List<NameEvent> held = early;
            early = null;
            for (NameEvent ev : held) {
                node.deliverLocal(subscriber, ev);
            }
        }

        private void registered(String name, String value) {
            ActorRef<?> ref = node.refOfEntry(name, value.split("\\|", 3));
            if (ref != null) {
                node.deliverLocal(subscriber, new NameEvent.Registered(name, ref));
            }
        }

        private synchronized void event(EntryEvent<String, String> e, boolean added) {
            String name = e.getKey();
            if (!name.startsWith(prefix)) {
                return;
            }
            if (early != null) {
                if (added) {
                    ActorRef<?> ref = node.refOfEntry(name, e.getValue().split("\\|", 3));
                    if (ref != null) {
                        early.add(new NameEvent.Registered(name, ref));
                    }
                } else {
                    early.add(new NameEvent.Unregistered(name));
                }
            } else if (added) {
                registered(name, e.getValue());
            } else {
                node.deliverLocal(subscriber, new NameEvent.Unregistered(name));
            }
        }

        @Override
        public void entryAdded(EntryEvent<String, String> e) {
            event(e, true);
        }

        @Override
        public void entryUpdated(EntryEvent<String, String> e) {
            event(e, true);
        }

        @Override
        public void entryRemoved(EntryEvent<String, String> e) {
            event(e, false);
        }

        @Override
        public void entryEvicted(EntryEvent<String, String> e) {
            event(e, false);
        }

        @Override
        public void entryExpired(EntryEvent<String, String> e) {
            event(e, false);
        }
    }

    /** Removes this node's names (closing). */
    void removeMine() {
        for (Map.Entry<String, String> e : mine.entrySet()) {
            unregister(e.getKey(), e.getValue());
        }
    }
}
