package io.gmp4j.cluster;

import io.gmp4j.actor.ActorRef;
import io.gmp4j.actor.NoSuchActorException;
import io.gmp4j.actor.RemoteActorRef;
import io.gmp4j.actor.Terminated;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

/**
 * Watches and links across nodes (Erlang's monitors and links between nodes), both sides of
 * each: what this node's actors hold on remote actors, and what remote actors hold on this
 * node's. The protocol, one control frame per event, through the same send context as the
 * messages (so a watch, a link or an exit keeps its order with the sender's tells):
 * <ul>
 *   <li>{@code WATCH(target, [id, watcherNode])}: the target's node watches it and answers
 *       {@code DOWN(id, reason)} once, when it stops (at once if it is not there).
 *       {@code UNWATCH(target, [id, watcherNode])} withdraws it.</li>
 *   <li>{@code LINK(target, [linker])}: the target holds its end of the link.
 *       {@code UNLINK(target, [linker])} removes it. {@code EXIT(target, [from, reason])}: the
 *       linked actor {@code from} stopped; the signal acts on the target as a local one.</li>
 * </ul>
 * When a node is lost ({@link #nodeLeft}), every watch of one of its actors ends with a
 * {@link NodeDownException}, every link with one gets the exit signal with that reason, and the
 * watches it held on this node's actors are withdrawn.
 *
 * <p>Invariant (one notice per watch): a watch's listener runs only by whoever removes the
 * watch from {@link #outById}: a DOWN frame, the node's loss, or a send that finds the node
 * already gone. A watch is put in the map before its node's membership is checked again, and a
 * node's loss is handled after it left the member list, so a watch started as the node goes is
 * ended by one of the two.
 */
final class Monitors {
    static final int REASON_NORMAL = 0, REASON_FAILED = 1, REASON_NOPROC = 2, REASON_NODE_DOWN = 3;

    /** A watch this node's actor (or whenTerminated) holds on a remote actor. */
    private record OutWatch(RemoteRef<?> target, Object key, Consumer<Terminated> listener) {
    }

    private record WatchKey(RemoteRef<?> target, Object key) {
    }

    /** A remote watcher's watch of a local actor: its key in the local actor's watchers. */
    private record InWatch(String watcherNode, long id) {
    }

    /** A link between a local actor and a remote one (each side's table holds it once). */
    private record Link(ActorRef<?> local, RemoteRef<?> remote) {
    }

    private final ClusterNode node;
    private final AtomicLong nextWatchId = new AtomicLong(1);
    private final Map<Long, OutWatch> outById = new ConcurrentHashMap<>();
    private final Map<WatchKey, Long> outByKey = new ConcurrentHashMap<>();
    private final Map<InWatch, ActorRef<?>> in = new ConcurrentHashMap<>();
    private final Set<Link> links = ConcurrentHashMap.newKeySet();

    Monitors(ClusterNode node) {
        this.node = node;
    }

    // =====================================================================================
    // Outbound: a local actor watches or links a remote one
    // =====================================================================================

    void watch(RemoteRef<?> target, Object key, Consumer<Terminated> listener) {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(listener, "listener");
        long id = nextWatchId.getAndIncrement();
        WatchKey wk = new WatchKey(target, key);
        if (outByKey.putIfAbsent(wk, id) != null) {
            return; // one watch per key
        }
        outById.put(id, new OutWatch(target, key, listener));
        if (!node.isMember(target.nodeId())) {
            end(id, new NodeDownException(target.nodeId()));
            return;
        }
        node.sendControl(target.nodeId(), target.key(), ClusterNode.WATCH, List.of(id, node.nodeId()));
    }

    void unwatch(RemoteRef<?> target, Object key) {
        Long id = outByKey.remove(new WatchKey(target, key));
        if (id != null && outById.remove(id) != null && node.isMember(target.nodeId())) {
            node.sendControl(target.nodeId(), target.key(), ClusterNode.UNWATCH, List.of(id, node.nodeId()));
        }
    }

    /** Ends watch {@code id} with {@code reason} if it is still on: its listener runs once. */
    private void end(long id, Throwable reason) {
        OutWatch w = outById.remove(id);
        if (w != null) {
            outByKey.remove(new WatchKey(w.target, w.key), id);
            w.listener.accept(new Terminated(w.target, reason));
        }
    }

    void link(RemoteRef<?> remote, ActorRef<?> local) {
        Link l = new Link(local, remote);
        links.add(l);
        if (!node.isMember(remote.nodeId())) {
            nodeDownExit(l);
            return;
        }
        node.sendControl(remote.nodeId(), remote.key(), ClusterNode.LINK, List.of(local));
    }

    void unlink(RemoteRef<?> remote, ActorRef<?> local) {
        if (links.remove(new Link(local, remote)) && node.isMember(remote.nodeId())) {
            node.sendControl(remote.nodeId(), remote.key(), ClusterNode.UNLINK, List.of(local));
        }
    }

    /** The local {@code local}, linked to {@code remote}, stopped with {@code why}. */
    void linkedExited(RemoteRef<?> remote, ActorRef<?> local, Throwable why) {
        links.remove(new Link(local, remote));
        if (node.isMember(remote.nodeId())) {
            List<Object> body = new java.util.ArrayList<>(4);
            body.add(local);
            encodeReason(why, body);
            node.sendControl(remote.nodeId(), remote.key(), ClusterNode.EXIT, body);
        }
    }

    private void nodeDownExit(Link l) {
        if (links.remove(l)) {
            RemoteActorRef.exitSignal(l.local, l.remote, new NodeDownException(l.remote.nodeId()));
        }
    }

    // =====================================================================================
    // Inbound: a control frame from another node, on a Vert.x event loop (never waits)
    // =====================================================================================

    /**
     * Applies control frame {@code kind} for the local actor under {@code key} ({@code local},
     * null if there is none) with its decoded {@code body}.
     *
     * @throws WireCodec.WireFormatException if the body does not have the kind's shape
     */
    void onControl(byte kind, long key, ActorRef<Object> local, Object body) {
        List<?> b = body instanceof List<?> l ? l : null;
        if (b == null) {
            throw new WireCodec.WireFormatException("a control frame without its list");
        }
        switch (kind) {
            case ClusterNode.WATCH -> onWatch(local, field(b, 0, Long.class), field(b, 1, String.class));
            case ClusterNode.UNWATCH -> {
                ActorRef<?> w = in.remove(new InWatch(field(b, 1, String.class), field(b, 0, Long.class)));
                if (w != null) {
                    RemoteActorRef.unwatchLocal(w, new InWatch(field(b, 1, String.class), field(b, 0, Long.class)));
                }
            }
            case ClusterNode.DOWN -> end(key, decodeReason(b, 0));
            case ClusterNode.LINK -> {
                RemoteRef<?> from = remoteField(b, 0);
                if (local == null) {
                    sendExit(from, new RemoteRef<>(node, node.nodeId(), key, "unknown"),
                            new NoSuchActorException("link: no actor under key " + key + " on node " + node.nodeId()));
                    return;
                }
                links.add(new Link(local, from));
                if (!node.isMember(from.nodeId())) {
                    nodeDownExit(new Link(local, from));
                    return;
                }
                RemoteActorRef.acceptLink(local, from);
            }
            case ClusterNode.UNLINK -> {
                RemoteRef<?> from = remoteField(b, 0);
                if (local != null && links.remove(new Link(local, from))) {
                    RemoteActorRef.acceptUnlink(local, from);
                }
            }
            case ClusterNode.EXIT -> {
                RemoteRef<?> from = remoteField(b, 0);
                Throwable why = decodeReason(b, 1);
                if (local != null && links.remove(new Link(local, from))) {
                    RemoteActorRef.exitSignal(local, from, why);
                }
            }
            default -> throw new WireCodec.WireFormatException("unknown control frame kind " + kind);
        }
    }

    private void onWatch(ActorRef<Object> local, long id, String watcherNode) {
        if (local == null) {
            sendDown(watcherNode, id, new NoSuchActorException("watch: no such actor on node " + node.nodeId()));
            return;
        }
        InWatch iw = new InWatch(watcherNode, id);
        in.put(iw, local);
        RemoteActorRef.watchLocal(local, iw, t -> {
            if (in.remove(iw) != null) {
                sendDown(watcherNode, id, t.reason());
            }
        });
        if (!node.isMember(watcherNode) && in.remove(iw) != null) {
            RemoteActorRef.unwatchLocal(local, iw); // the watcher's node left as the watch came
        }
    }

    private void sendDown(String watcherNode, long id, Throwable reason) {
        List<Object> body = new java.util.ArrayList<>(3);
        encodeReason(reason, body);
        node.sendControl(watcherNode, id, ClusterNode.DOWN, body);
    }

    private void sendExit(RemoteRef<?> to, ActorRef<?> from, Throwable why) {
        List<Object> body = new java.util.ArrayList<>(4);
        body.add(from);
        encodeReason(why, body);
        node.sendControl(to.nodeId(), to.key(), ClusterNode.EXIT, body);
    }

    // =====================================================================================
    // A node is lost
    // =====================================================================================

    /** Ends every watch and link that involves node {@code id}, which has left the cluster. */
    void nodeLeft(String id) {
        for (Map.Entry<Long, OutWatch> e : outById.entrySet()) {
            if (e.getValue().target.nodeId().equals(id)) {
                end(e.getKey(), new NodeDownException(id));
            }
        }
        for (Link l : links) {
            if (l.remote.nodeId().equals(id)) {
                nodeDownExit(l);
            }
        }
        for (Map.Entry<InWatch, ActorRef<?>> e : in.entrySet()) {
            if (e.getKey().watcherNode.equals(id) && in.remove(e.getKey(), e.getValue())) {
                RemoteActorRef.unwatchLocal(e.getValue(), e.getKey());
            }
        }
    }

    /** Watches and links on record, for tests: outbound watches, inbound watches, links. */
    int[] sizes() {
        return new int[] {outById.size(), in.size(), links.size()};
    }

    // =====================================================================================
    // Reasons on the wire: [kind, class name, message]
    // =====================================================================================

    static void encodeReason(Throwable why, List<Object> out) {
        switch (why) {
            case null -> {
                out.add(REASON_NORMAL);
                out.add(null);
                out.add(null);
            }
            case NoSuchActorException e -> {
                out.add(REASON_NOPROC);
                out.add(null);
                out.add(e.getMessage());
            }
            case NodeDownException e -> {
                out.add(REASON_NODE_DOWN);
                out.add(e.nodeId());
                out.add(null);
            }
            case RemoteActorException e -> {
                out.add(REASON_FAILED);
                out.add(e.remoteClassName());
                out.add(e.getMessage());
            }
            default -> {
                out.add(REASON_FAILED);
                out.add(why.getClass().getName());
                out.add(why.getMessage());
            }
        }
    }

    static Throwable decodeReason(List<?> b, int at) {
        int kind = field(b, at, Integer.class);
        String name = nullableString(b, at + 1);
        String message = nullableString(b, at + 2);
        return switch (kind) {
            case REASON_NORMAL -> null;
            case REASON_FAILED -> new RemoteActorException(name == null ? "unknown" : name, message);
            case REASON_NOPROC -> new NoSuchActorException(message == null ? "no such actor" : message);
            case REASON_NODE_DOWN -> new NodeDownException(name == null ? "unknown" : name);
            default -> throw new WireCodec.WireFormatException("unknown reason kind " + kind);
        };
    }

    private static <V> V field(List<?> b, int i, Class<V> type) {
        if (i >= b.size() || !type.isInstance(b.get(i))) {
            throw new WireCodec.WireFormatException("control frame field " + i + " is not a " + type.getSimpleName());
        }
        return type.cast(b.get(i));
    }

    private static String nullableString(List<?> b, int i) {
        return i < b.size() && b.get(i) == null ? null : field(b, i, String.class);
    }

    private static RemoteRef<?> remoteField(List<?> b, int i) {
        if (i < b.size() && b.get(i) instanceof RemoteRef<?> r) {
            return r;
        }
        throw new WireCodec.WireFormatException("control frame field " + i + " is not a remote actor");
    }
}
