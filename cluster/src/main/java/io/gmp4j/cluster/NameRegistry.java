package io.gmp4j.cluster;

import com.hazelcast.map.IMap;
import io.gmp4j.actor.ActorRef;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Cluster-wide names: a Hazelcast map from name to {@code nodeId|key|actorName}. A node removes
 * its names when their actors stop and when it closes; the survivors remove a departed node's.
 * Conditional removes ({@code remove(name, value)}) keep a name someone registered again.
 */
final class NameRegistry {
    static final String MAP_NAME = "gmp4j.names";

    private final ClusterNode node;
    private final IMap<String, String> map;
    /** The names this node registered, with their values. */
    private final Map<String, String> mine = new ConcurrentHashMap<>();

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

    /** Removes this node's names (closing). */
    void removeMine() {
        for (Map.Entry<String, String> e : mine.entrySet()) {
            unregister(e.getKey(), e.getValue());
        }
    }
}
