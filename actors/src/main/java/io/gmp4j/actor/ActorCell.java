package io.gmp4j.actor;

import io.gmp4j.runtime.RuntimeTimer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Predicate;


/**
 * An actor's lifecycle on top of its {@link MailboxCell}: ask, stop and a link's kill; children,
 * and finishing only after every child finished; watchers ({@link Terminated}, one per watch)
 * and links (Erlang's link/unlink/trap_exit, also with {@link RemoteActorRef}s); the
 * {@link CellContext} handed to the actor's own code is a view of it.
 *
 * <p>Nothing here costs a message anything: children, watchers, links and the trap-exits flag
 * are read only when an actor is spawned, linked, watched or dies. The lock word of the mailbox
 * half guards this half's fields.
 *
 * @param <T> the message type
 */
abstract class ActorCell<T> extends MailboxCell<T> {
    final CellContext<T> ctx = new CellContext<>(this);
    /** Whether exit signals of linked actors arrive as {@link ExitSignal} messages. */
    volatile boolean trapExits;
    private Throwable reason;
    /** The reason a kill by a link ({@link #exit}) gave, for the stop it requested. */
    private Throwable exitReason;
    private boolean finished;
    private HashSet<ActorCell<?>> children;
    private LinkedHashMap<Object, DeathListener> watchers;
    private boolean watchersClosed;
    /** Set once this actor has finished and told every watcher it had; then whenTold runs at once. */
    private boolean told;
    /** What {@link #whenTold} was given before {@link #told}: told once it is set. */
    private ArrayList<DeathListener> afterTold;
    /**
     * The actors this one watches, each with the notice of its watch: deduplicates watch until
     * that notice is taken ({@link WatchNotice}), and is unwatched when this one dies.
     */
    private HashMap<ActorRef<?>, WatchNotice> watching;
    /**
     * The actors linked to this one (both sides hold the link): cells, and
     * {@link RemoteActorRef}s whose transport holds the other end; closed with the watchers.
     */
    private HashSet<ActorRef<?>> links;

    /** Told when a watched actor terminates. */
    @FunctionalInterface
    interface DeathListener {
        void onTerminated(Terminated t);
    }

    ActorCell(ActorSystem system, ActorCell<?> parent, Props props, Object initialState) {
        super(system, parent, props, initialState);
    }


    // =====================================================================================
    // Ask, stop, identity
    // =====================================================================================

    @Override
    public final <R> Reply<R> ask(Function<ActorRef<R>, T> msgFactory, Duration timeout) {
        long nanos = timeout.toNanos();
        if (nanos <= 0) {
            throw new IllegalArgumentException("ask: timeout must be positive, got " + timeout);
        }
        Reply<R> r = new Reply<>("ask of " + name);
        T msg = msgFactory.apply(new ReplyRef<>(r, this));
        r.target = this;
        if (!addWatcher(r, t -> r.complete(null,
                new ActorStoppedException("actor " + name + " stopped before it answered", t.reason())))) {
            r.complete(null, new ActorStoppedException("actor " + name + " had stopped", reasonIfDead()));
            system.deadLetter(msg, this);
            return r;
        }
        RuntimeTimer timer = system.scheduler().newTimer(() -> r.complete(null,
                new AskTimeoutException("ask of " + name + " timed out after " + timeout)));
        r.timer = timer;
        timer.reset(System.nanoTime() + nanos);
        if (r.isDone()) {
            timer.stop(); // completed before the timer was visible to complete()
        }
        try {
            tell(msg);
        } catch (MailboxFullException e) {
            r.complete(null, e);
        }
        return r;
    }

    @Override
    public final void stop() {
        if (stopRequested || dead) {
            return;
        }
        stopRequested = true;
        signal();
    }

    /**
     * Kills this actor with {@code why} (an exit signal from a linked actor it does not trap):
     * a stop request that carries a reason. Ignored if the actor is stopping already (its first
     * reason stands).
     */
    final void exit(Throwable why) {
        lock();
        try {
            if (stopping || dead) {
                return;
            }
            if (exitReason == null) {
                exitReason = why;
            }
        } finally {
            unlock();
        }
        stopRequested = true;
        signal();
    }

    /**
     * A pipe goroutine of this actor ({@link ActorContext#pipeFrom}) failed with {@code why}:
     * reported and counted as the actor's own failure, and the actor stops with that reason.
     */
    final void pipeFailed(Throwable why) {
        system.failed(this, why);
        exit(why);
    }

    /** The reason for a requested stop: a link's exit reason, or null for a plain stop. */
    final Throwable requestedStopReason() {
        lock();
        try {
            return exitReason;
        } finally {
            unlock();
        }
    }

    @Override
    public final String name() {
        return name;
    }

    @Override
    public final boolean isAlive() {
        return !dead;
    }

    @Override
    public String toString() {
        return "Actor[" + name + (dead ? ", dead" : "") + "]";
    }

    // =====================================================================================
    // Lifecycle: stopping, children, watchers
    // =====================================================================================

    /**
     * Consumer only, once: stop handling messages, stop the children, then finish. {@code why}
     * is the exit reason (null: normal); {@code ownFailure} says the actor's own code threw (or
     * its supervisor gave up), which is reported and counted, unlike a kill by a link.
     */
    final void beginStop(Throwable why, boolean ownFailure) {
        ActorCell<?>[] kids = null;
        boolean finishNow;
        lock();
        try {
            if (stopping) {
                return;
            }
            stopping = true;
            reason = why;
            if (children == null || children.isEmpty()) {
                finished = true;
                finishNow = true;
            } else {
                kids = children.toArray(new ActorCell<?>[0]);
                finishNow = false;
            }
        } finally {
            unlock();
        }
        if (why != null && ownFailure) {
            system.failed(this, why);
        }
        if (finishNow) {
            finish(true);
        } else {
            for (ActorCell<?> k : kids) {
                k.stop();
            }
        }
    }

    /** Adds a child; false if this actor is stopping. */
    final boolean addChild(ActorCell<?> child) {
        lock();
        try {
            if (stopping) {
                return false;
            }
            if (children == null) {
                children = new HashSet<>();
            }
            children.add(child);
            return true;
        } finally {
            unlock();
        }
    }

    /** Called by a child's finish. The last child of a stopping actor finishes it. */
    final void childTerminated(ActorCell<?> child) {
        boolean finishNow = false;
        lock();
        try {
            children.remove(child);
            if (stopping && !finished && children.isEmpty()) {
                finished = true;
                finishNow = true;
            }
        } finally {
            unlock();
        }
        if (finishNow) {
            finish(false);
        }
    }

    /**
     * Once, after every child finished: free the name, die, dead-letter the mailbox, tell the
     * watchers and the parent. {@code consumer}: the caller holds the consumer role (it is the
     * actor's own run or goroutine, stopping without children), so it drains right here, and
     * the messages that were waiting are dead letters before any watcher hears of the death.
     */
    private void finish(boolean consumer) {
        if (named) {
            system.unregister(name, this);
        }
        dead = true;
        if (bound != null) {
            bound.close(); // blocked senders wake, see dead, and dead-letter their messages
        }
        // Whatever is left in the mailbox: drained here if nobody holds the consumer role, else
        // by its holder, which re-checks after its release (hasWork sees dead).
        if (consumer) {
            drainDead(); // the caller's release() re-checks for late arrivals
        } else if (STATE.compareAndSet(this, IDLE, SCHEDULED)) {
            drainDead();
            release();
        }
        onFinished();
        // Only now close the watchers: a watch that comes after this is told at once (see
        // watch), so it must not come before the drain above, or a whenTerminated could return
        // while the mailbox's messages are not dead letters yet. A watch during the drain joins
        // the list and is told below.
        Map<Object, DeathListener> ws;
        Throwable why;
        HashMap<ActorRef<?>, WatchNotice> watched;
        HashSet<ActorRef<?>> linked;
        lock();
        try {
            ws = watchers;
            watchers = null;
            watchersClosed = true; // also closes links: addLink fails from now on
            why = reason;
            watched = watching;
            watching = null;
            linked = links;
            links = null;
        } finally {
            unlock();
        }
        if (watched != null) {
            for (ActorRef<?> w : watched.keySet()) { // a dead watcher needs no notice
                if (w instanceof RemoteActorRef<?> r) {
                    r.unwatchRemote(this);
                } else {
                    ((ActorCell<?>) w).removeWatcher(this);
                }
            }
        }
        // Counted as gone before anyone hears of it: a watcher sees liveActors() without it.
        if (parent == null) {
            system.topLevelTerminated(this);
        } else {
            system.actorGone();
        }
        Terminated t = null; // made only if someone is to be told
        if (ws != null) {
            t = new Terminated(this, why);
            tell(ws.values(), t);
        }
        // Every watcher it had is told: now the whenTerminated calls that came too late to be
        // one of them (see whenTold), in order.
        ArrayList<DeathListener> after;
        lock();
        try {
            told = true;
            after = afterTold;
            afterTold = null;
        } finally {
            unlock();
        }
        if (after != null) {
            tell(after, t != null ? t : new Terminated(this, why));
        }
        if (linked != null) {
            for (ActorRef<?> l : linked) {
                if (l instanceof RemoteActorRef<?> r) {
                    r.linkedExited(this, why);
                } else {
                    ((ActorCell<?>) l).linkedActorExited(this, why);
                }
            }
        }
        if (parent != null) {
            parent.childTerminated(this);
        }
    }

    /** Tells each of {@code listeners} of this actor's death, in order; a listener's exception is a failure. */
    private void tell(Iterable<DeathListener> listeners, Terminated t) {
        for (DeathListener l : listeners) {
            try {
                l.onTerminated(t);
            } catch (RuntimeException e) {
                system.failed(this, e);
            }
        }
    }

    /** Hook for subclasses, run once when the actor is dead, before its watchers are told. */
    void onFinished() {
    }

    private Throwable reasonIfDead() {
        lock();
        try {
            return reason;
        } finally {
            unlock();
        }
    }

    /** Starts the watch of {@code n.target}; false if one is on already (until its notice is taken). */
    boolean startWatch(WatchNotice n) {
        lock();
        try {
            if (watching == null) {
                watching = new HashMap<>();
            }
            return watching.putIfAbsent(n.target, n) == null;
        } finally {
            unlock();
        }
    }

    /** Ends the watch of {@code c}, if any: its notice, queued or still to come, is dropped when taken. */
    void endWatch(ActorRef<?> c) {
        lock();
        try {
            if (watching != null) {
                watching.remove(c);
            }
        } finally {
            unlock();
        }
    }

    /** Consumer: {@code n} is taken, which ends its watch; false if that watch had ended (unwatch). */
    @Override
    final boolean noticeTaken(WatchNotice n) {
        lock();
        try {
            return watching != null && watching.remove(n.target, n);
        } finally {
            unlock();
        }
    }

    /**
     * For a caller that found this actor finished: tells {@code l} once every watcher it had is
     * told (their notices are in their mailboxes), on the thread that told them; at once, on
     * the caller's, if that is done. Only {@code whenTerminated} waits so; a late watch is
     * told at once.
     */
    final void whenTold(DeathListener l) {
        lock();
        try {
            if (!told) {
                if (afterTold == null) {
                    afterTold = new ArrayList<>();
                }
                afterTold.add(l);
                return;
            }
        } finally {
            unlock();
        }
        l.onTerminated(new Terminated(this, reasonIfDead()));
    }

    /** Registers a watcher; false (nothing registered) if this actor has already finished. */
    final boolean addWatcher(Object key, DeathListener l) {
        lock();
        try {
            if (watchersClosed) {
                return false;
            }
            if (watchers == null) {
                watchers = new LinkedHashMap<>();
            }
            watchers.putIfAbsent(key, l);
            return true;
        } finally {
            unlock();
        }
    }

    final void removeWatcher(Object key) {
        lock();
        try {
            if (watchers != null) {
                watchers.remove(key);
            }
        } finally {
            unlock();
        }
    }

    /**
     * Watches {@code target} with {@code l}, or tells {@code l} now if it has finished. A remote
     * target's transport tells {@code l} (see {@link RemoteActorRef#watchRemote}).
     */
    static void watch(ActorRef<?> target, Object key, DeathListener l) {
        if (target instanceof RemoteActorRef<?> r) {
            r.watchRemote(key, l::onTerminated);
            return;
        }
        ActorCell<?> c = cellOf(target, "watch");
        if (!c.addWatcher(key, l)) {
            l.onTerminated(new Terminated(c, c.reasonIfDead()));
        }
    }

    // =====================================================================================
    // Links (Erlang's link/unlink/trap_exit)
    // =====================================================================================

    /** Adds {@code other} to this actor's links; false if this actor has finished. */
    private boolean addLink(ActorRef<?> other) {
        lock();
        try {
            if (watchersClosed) {
                return false;
            }
            if (links == null) {
                links = new HashSet<>();
            }
            links.add(other);
            return true;
        } finally {
            unlock();
        }
    }

    /** Removes {@code other} from this actor's links; false if it was not linked (any more). */
    private boolean removeLink(ActorRef<?> other) {
        lock();
        try {
            return links != null && links.remove(other);
        } finally {
            unlock();
        }
    }

    /**
     * Links this actor (the caller's own) with {@code other}, both ways. If {@code other} has
     * already finished, this actor gets the exit signal at once, with a
     * {@link NoSuchActorException} as the reason (Erlang's {@code noproc}).
     */
    final void link(ActorCell<?> other) {
        if (other == this || !addLink(other)) {
            return; // linking to oneself is nothing; a finished caller cannot link
        }
        if (!other.addLink(this)) {
            linkedActorExited(other, new NoSuchActorException("link: actor " + other.name + " had already stopped"));
        }
    }

    /** Removes the link both ways; no exit signal of it acts on this actor afterwards. */
    final void unlink(ActorCell<?> other) {
        removeLink(other);
        other.removeLink(this);
    }

    /**
     * Links this actor (the caller's own) with the remote {@code other}: this end now, the
     * other through its transport, which reports the remote's exit as a signal. A finished
     * caller cannot link.
     */
    void linkRemote(RemoteActorRef<?> other) {
        if (addLink(other)) {
            other.linkRemote(this);
        }
    }

    void unlinkRemote(RemoteActorRef<?> other) {
        removeLink(other);
        other.unlinkRemote(this);
    }

    /**
     * The transport's side of a remote actor's link to this one: this end is added; if this
     * actor has finished, the remote gets the exit signal at once (Erlang's {@code noproc}).
     */
    final void acceptRemoteLink(RemoteActorRef<?> remote) {
        if (!addLink(remote)) {
            remote.linkedExited(this, new NoSuchActorException("link: actor " + name + " had already stopped"));
        }
    }

    /** The transport's side of a remote actor's unlink: this end goes. */
    final void dropRemoteLink(RemoteActorRef<?> remote) {
        removeLink(remote);
    }

    /**
     * The exit signal of a linked actor that finished with {@code why} (null: normal). It acts
     * only if the link is still there (taking it away), so an unlink that returned first wins:
     * a trapping actor receives an {@link ExitSignal}; any other one dies of an abnormal reason
     * (that very reason) and ignores a normal one.
     */
    final void linkedActorExited(ActorRef<?> from, Throwable why) {
        if (!removeLink(from)) {
            return;
        }
        if (trapExits) {
            tellSystem(new ExitSignal(from, why));
        } else if (why != null) {
            exit(why);
        }
    }

    /**
     * The actor behind {@code ref}: the cell itself, or a supervised child's current
     * incarnation. {@code what} names the operation for the error message.
     */
    static ActorCell<?> cellOf(ActorRef<?> ref, String what) {
        if (ref instanceof ActorCell<?> c) {
            return c;
        }
        if (ref instanceof ChildRef<?> cr) {
            return cr.current();
        }
        throw new IllegalArgumentException("cannot " + what + " " + ref + ": not an actor of an ActorSystem");
    }

    final ArrayList<ActorCell<?>> childrenSnapshot() {
        lock();
        try {
            return children == null ? new ArrayList<>() : new ArrayList<>(children);
        } finally {
            unlock();
        }
    }

    // =====================================================================================
    // The context
    // =====================================================================================

    T receive0(Predicate<? super T> filter, boolean timed, long deadline) {
        throw new IllegalStateException("receive() is for process actors; a behaviour actor gets its messages in its handler");
    }
}
