package io.gmp4j.actor;

import java.util.Objects;
import java.util.function.Consumer;

/**
 * The seam between local actors and a transport that reaches actors in other processes (the
 * {@code gmp4j-cluster} module implements it): an {@link ActorRef} whose actor lives elsewhere.
 * Users never implement or call it; they use the ref as any other, and watching or linking it
 * from a local actor works as locally.
 *
 * <p>Two directions, one contract each:
 * <ul>
 *   <li><b>Outbound</b> (the instance methods): a local actor watches, unwatches, links or
 *       unlinks this ref, or dies while linked to it, and the transport carries that to the
 *       actor's node. The transport must report each watch's end exactly once (unless it was
 *       unwatched first): the remote actor's termination, or the loss of its node, whichever it
 *       learns of first.</li>
 *   <li><b>Inbound</b> (the static methods): the transport applies what a remote actor did to
 *       a local one: watch it, link to it, send it the exit signal of a remote linked actor.</li>
 * </ul>
 * A reason that crossed the wire is the transport's own exception type (a remote actor's
 * exception is never deserialized).
 *
 * @param <T> the type of message the remote actor accepts
 */
public interface RemoteActorRef<T> extends ActorRef<T> {
    /**
     * Starts a watch of the remote actor identified by {@code key} (one per key: watching again
     * under the same key changes nothing). {@code onTerminated} is called once, from any thread,
     * when the actor stops or its node is lost, or at once if it is already known gone; it must
     * not block.
     *
     * <pre>{@code
     * remote.watchRemote(watcher, t -> watcher.tell(t));
     * }</pre>
     */
    void watchRemote(Object key, Consumer<Terminated> onTerminated);

    /**
     * Ends the watch under {@code key}: once it returns, its {@code onTerminated} is not called.
     *
     * <pre>{@code
     * remote.unwatchRemote(watcher);
     * }</pre>
     */
    void unwatchRemote(Object key);

    /**
     * The local actor {@code local} has linked itself to this one (it holds its end already):
     * the transport makes the remote actor hold the other end, and reports the remote's exit
     * with {@link #exitSignal}, also when the remote actor had already stopped or its node is
     * lost.
     *
     * <pre>{@code
     * remote.linkRemote(self);
     * }</pre>
     */
    void linkRemote(ActorRef<?> local);

    /**
     * The local actor {@code local} has removed its end of the link: the remote actor removes
     * its end.
     *
     * <pre>{@code
     * remote.unlinkRemote(self);
     * }</pre>
     */
    void unlinkRemote(ActorRef<?> local);

    /**
     * The local actor {@code local}, linked to this one, has stopped with {@code why} (null: a
     * normal stop): the transport delivers the exit signal to the remote actor.
     *
     * <pre>{@code
     * remote.linkedExited(self, failure);
     * }</pre>
     */
    void linkedExited(ActorRef<?> local, Throwable why);

    /**
     * Inbound: watches the local actor {@code local} for a remote watcher under {@code key};
     * {@code onTerminated} is called once when it stops, at once if it has.
     *
     * <pre>{@code
     * RemoteActorRef.watchLocal(target, watchId, t -> sendDown(watchId, t));
     * }</pre>
     *
     * @throws IllegalArgumentException if {@code local} is not an actor of an ActorSystem
     */
    static void watchLocal(ActorRef<?> local, Object key, Consumer<Terminated> onTerminated) {
        Objects.requireNonNull(onTerminated, "onTerminated");
        ActorCell.watch(local, Objects.requireNonNull(key, "key"), onTerminated::accept);
    }

    /**
     * Inbound: ends the remote watch of {@code local} under {@code key}.
     *
     * <pre>{@code
     * RemoteActorRef.unwatchLocal(target, watchId);
     * }</pre>
     */
    static void unwatchLocal(ActorRef<?> local, Object key) {
        ActorCell.cellOf(local, "unwatch").removeWatcher(key);
    }

    /**
     * Inbound: the remote actor {@code remote} has linked itself to the local {@code local};
     * {@code local} now holds its end. If {@code local} has already stopped, {@code remote} is
     * sent the exit signal at once ({@link #linkedExited}, with a {@link NoSuchActorException}).
     *
     * <pre>{@code
     * RemoteActorRef.acceptLink(target, linker);
     * }</pre>
     */
    static void acceptLink(ActorRef<?> local, RemoteActorRef<?> remote) {
        ActorCell.cellOf(local, "link").acceptRemoteLink(remote);
    }

    /**
     * Inbound: the remote actor {@code remote} has removed its link with {@code local}.
     *
     * <pre>{@code
     * RemoteActorRef.acceptUnlink(target, linker);
     * }</pre>
     */
    static void acceptUnlink(ActorRef<?> local, RemoteActorRef<?> remote) {
        ActorCell.cellOf(local, "unlink").dropRemoteLink(remote);
    }

    /**
     * Inbound: the remote actor {@code from}, linked to {@code local}, has stopped with
     * {@code why} (null: normal), or its node is lost: the exit signal acts on {@code local} as
     * a local one does (a trapping actor gets an {@link ExitSignal}; any other dies of an
     * abnormal reason), if the link is still there.
     *
     * <pre>{@code
     * RemoteActorRef.exitSignal(target, linker, new NodeDownException(node));
     * }</pre>
     */
    static void exitSignal(ActorRef<?> local, RemoteActorRef<?> from, Throwable why) {
        ActorCell.cellOf(local, "signal").linkedActorExited(from, why);
    }

    /**
     * Inbound: fails the pending {@code ask} whose reply address is {@code replyTo} with
     * {@code why} (the node it asked is lost); false if it had its answer already or
     * {@code replyTo} is not an ask's reply address.
     *
     * <pre>{@code
     * RemoteActorRef.failReply(replyTo, new NodeDownException(node));
     * }</pre>
     */
    static boolean failReply(ActorRef<?> replyTo, Throwable why) {
        return replyTo instanceof ReplyRef<?> r && r.fail(Objects.requireNonNull(why, "why"));
    }
}
