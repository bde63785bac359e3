package io.gmp4j.cluster;

import io.gmp4j.actor.ActorRef;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The local references other nodes can reach, each under a key that is unique on this node for
 * its lifetime: a ref gets one key however often it is sent. Entries go when the ref is removed
 * (a finished ask) or found dead by {@link #sweep()}.
 */
final class ExportTable {
    private final AtomicLong next = new AtomicLong(1);
    private final Map<Long, ActorRef<?>> byKey = new ConcurrentHashMap<>();
    private final Map<ActorRef<?>, Long> byRef = new ConcurrentHashMap<>();

    /** The key of {@code ref}, exported now if it was not. */
    long export(ActorRef<?> ref) {
        // byKey's entry is written inside the mapping function: before the key is returned to
        // anyone who could put it on the wire, so an answer to it always finds the ref.
        return byRef.computeIfAbsent(ref, r -> {
            long k = next.getAndIncrement();
            byKey.put(k, r);
            return k;
        });
    }

    /** The exported ref under {@code key}, or null. */
    @SuppressWarnings("unchecked")
    ActorRef<Object> get(long key) {
        return (ActorRef<Object>) byKey.get(key);
    }

    /** Stops exporting {@code ref}; its key is never given out again. */
    void remove(ActorRef<?> ref) {
        Long k = byRef.remove(ref);
        if (k != null) {
            byKey.remove(k);
        }
    }

    /** Removes the refs that are no longer alive; returns how many. */
    int sweep() {
        int n = 0;
        for (ActorRef<?> r : byRef.keySet()) {
            if (!r.isAlive()) {
                remove(r);
                n++;
            }
        }
        return n;
    }

    /** How many refs are exported. */
    int size() {
        return byKey.size();
    }
}
