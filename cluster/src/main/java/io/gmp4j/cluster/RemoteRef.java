package io.gmp4j.cluster;

import io.gmp4j.actor.ActorRef;
import io.gmp4j.actor.RemoteActorRef;
import io.gmp4j.actor.Reply;
import io.gmp4j.actor.Terminated;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * An actor on another node, reached through {@code node}'s event bus: (node id, key) names it
 * there. Equal to another RemoteRef for the same actor.
 *
 * <ul>
 *   <li>{@link #tell}: at most once (no acknowledgement), in the order one sender sends;
 *       a message is encoded on the caller's thread, so an unencodable one is refused there.</li>
 *   <li>{@link #ask}: as {@link ActorRef#ask}, the reply address crossing the wire; the answer
 *       fails with {@code AskTimeoutException} if none comes in time (also when the remote
 *       actor has stopped: an ask does not watch it), with {@link NodeDownException} when
 *       the actor's node is lost, and with {@code ActorStoppedException} if the local node
 *       closes first.</li>
 *   <li>watch and link (from a local actor's context, or {@code whenTerminated}): as locally,
 *       through {@link Monitors}; the node's loss ends them with {@link NodeDownException}.</li>
 *   <li>{@link #stop}: sends a stop request, at most once, without waiting.</li>
 *   <li>{@link #isAlive}: true while the actor's node is a member of the cluster and the local
 *       node is open; it does not learn of the remote actor's own stop.</li>
 * </ul>
 */
final class RemoteRef<T> implements RemoteActorRef<T> {
    private final ClusterNode node;
    private final String nodeId;
    private final long key;
    private final String name;

    RemoteRef(ClusterNode node, String nodeId, long key, String name) {
        this.node = node;
        this.nodeId = nodeId;
        this.key = key;
        this.name = name;
    }

    String nodeId() {
        return nodeId;
    }

    long key() {
        return key;
    }

    @Override
    public void tell(T msg) {
        Objects.requireNonNull(msg, "tell: null message");
        node.send(nodeId, key, ClusterNode.TELL, msg);
    }

    @Override
    public <R> Reply<R> ask(Function<ActorRef<R>, T> msgFactory, Duration timeout) {
        return node.ask(this, msgFactory, timeout);
    }

    @Override
    public void stop() {
        node.send(nodeId, key, ClusterNode.STOP, null);
    }

    @Override
    public void watchRemote(Object key, Consumer<Terminated> onTerminated) {
        node.monitors().watch(this, key, onTerminated);
    }

    @Override
    public void unwatchRemote(Object key) {
        node.monitors().unwatch(this, key);
    }

    @Override
    public void linkRemote(ActorRef<?> local) {
        node.monitors().link(this, local);
    }

    @Override
    public void unlinkRemote(ActorRef<?> local) {
        node.monitors().unlink(this, local);
    }

    @Override
    public void linkedExited(ActorRef<?> local, Throwable why) {
        node.monitors().linkedExited(this, local, why);
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public boolean isAlive() {
        return node.isMember(nodeId);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RemoteRef<?> r && r.key == key && r.nodeId.equals(nodeId);
    }

    @Override
    public int hashCode() {
        return nodeId.hashCode() * 31 + Long.hashCode(key);
    }

    @Override
    public String toString() {
        return "RemoteRef[" + name + "@" + nodeId + "/" + key + "]";
    }
}
