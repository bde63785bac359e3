package io.gmp4j.actor;

import io.gmp4j.runtime.RuntimeTimer;
import io.gmp4j.runtime.Scheduler;
import io.gmp4j.runtime.ShortLock;
import io.gmp4j.runtime.Waiter;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.function.Predicate;
import org.jctools.queues.MessagePassingQueue;
import org.jctools.queues.unpadded.MpscUnboundedUnpaddedArrayQueue;

/**
 * The common part of both kinds of actor: the mailbox, the scheduling state, and the lifecycle
 * (children, watchers, links, name, dead letters).
 *
 * <h2>The mailbox and who consumes it</h2>
 * The mailbox is a JCTools MPSC queue: any number of senders, exactly one consumer at a time.
 * Who the consumer is follows from {@link #state}:
 * <ul>
 *   <li>{@link #IDLE}: nobody. A sender that enqueued a message CASes {@code IDLE -> SCHEDULED}
 *       and so becomes responsible for getting the mailbox consumed (it submits the behaviour
 *       actor's task, or drains a dead actor's mailbox into dead letters itself).</li>
 *   <li>{@link #SCHEDULED}: the one holder of the consumer role: a behaviour actor's task
 *       (queued or running), a process actor's goroutine while it runs, or a thread draining a
 *       dead actor's mailbox.</li>
 *   <li>a {@link Waiter}: a process actor's goroutine parked in {@code receive} on that waiter.
 *       A sender that CASes it to {@code SCHEDULED} (on that very waiter, so it can never wake
 *       a later wait) claims and wakes it.</li>
 * </ul>
 *
 * <h2>Going idle without losing a wake-up</h2>
 * The consumer leaves with {@link #release}: (1) a volatile store of {@code IDLE} (or of the
 * waiter), (2) a re-check of the mailbox ({@code isEmpty} reads the producer index with a
 * volatile load), (3) if there is work, a CAS back to {@code SCHEDULED} and another run. A
 * sender does (1) {@code offer} (a CAS on the producer index), (2) a volatile load of
 * {@code state}, (3) the CAS if it saw {@code IDLE} or a waiter. All four accesses are
 * synchronization actions, so in their total order either the sender's increment of the
 * producer index comes before the consumer's re-check (the consumer sees the message) or the
 * consumer's {@code IDLE} store comes before the sender's load (the sender sees {@code IDLE}
 * and schedules). If both see each other, exactly one CAS wins. Messages can therefore never
 * sit in a mailbox that nobody is responsible for.
 *
 * <h2>System messages</h2>
 * Termination notices ({@link Terminated}, and what {@code watchWith} maps them to) and exit
 * signals ({@link ExitSignal}) go through {@link #tellSystem}: into the same mailbox, so they
 * keep their order with the messages sent before them, but past the bound of a bounded mailbox
 * (wrapped in a {@link SystemMessage} that {@link #take} unwraps without giving a place back).
 * A full mailbox therefore never loses a notice. A stop (and a kill by a link) is not a message
 * at all: a flag that the consumer checks before each message.
 *
 * <h2>What the lifecycle costs per message</h2>
 * Nothing: children, watchers, links and the trap-exits flag are only read when an actor is
 * spawned, linked, watched or dies; the run loop reads {@link #stopRequested} as before, and
 * {@link #take} tests each message for a {@link WatchNotice} (one type check), and for a system
 * message only on the bounded path.
 *
 * @param <T> the message type
 */
abstract class ActorCell<T> implements ActorRef<T> {
    static final Object IDLE = new Object() {
        @Override
        public String toString() {
            return "IDLE";
        }
    };
    static final Object SCHEDULED = new Object() {
        @Override
        public String toString() {
            return "SCHEDULED";
        }
    };

    private static final VarHandle STATE;
    private static final VarHandle LOCK;
    /** Mailbox chunk: small, because a million idle actors each hold one. */
    static final int MAILBOX_CHUNK = 16;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            STATE = l.findVarHandle(ActorCell.class, "state", Object.class);
            LOCK = l.findVarHandle(ActorCell.class, "lock", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final ActorSystem system;
    final ActorCell<?> parent;
    final String name;
    final boolean named;
    /** Holds {@code T}s, and for a bounded mailbox also {@link SystemMessage}s. */
    final MessagePassingQueue<Object> mailbox = new MpscUnboundedUnpaddedArrayQueue<>(MAILBOX_CHUNK);
    /** The bound of a bounded mailbox; null (the default) for an unbounded one. */
    final MailboxBound bound;
    final Ctx ctx = new Ctx();

    /** IDLE, SCHEDULED, or the Waiter of a process parked in receive. */
    private volatile Object state;
    /** Set by {@link #stop}; the consumer begins stopping when it sees it. */
    volatile boolean stopRequested;
    /** Set once stopping began (no message is handled after); written under the lock. */
    volatile boolean stopping;
    /** Set by {@link #finish}: messages go straight to dead letters. */
    volatile boolean dead;
    /** Whether exit signals of linked actors arrive as {@link ExitSignal} messages. */
    volatile boolean trapExits;

    /** Inline ShortLock word guarding the fields below. */
    private volatile int lock;
    private Throwable reason;
    /** The reason a kill by a link ({@link #exit}) gave, for the stop it requested. */
    private Throwable exitReason;
    private boolean finished;
    private HashSet<ActorCell<?>> children;
    private LinkedHashMap<Object, DeathListener> watchers;
    private boolean watchersClosed;
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
        String name = props.name();
        this.system = system;
        this.parent = parent;
        this.named = name != null;
        this.name = name != null ? name : "$" + system.nextId();
        this.bound = props.capacity() > 0 ? new MailboxBound(props.capacity(), props.overflow()) : null;
        this.state = initialState;
    }

    final void lock() {
        if (!LOCK.compareAndSet(this, 0, 1)) {
            ShortLock.acquireSlow(LOCK, this, true);
        }
    }

    final void unlock() {
        LOCK.setRelease(this, 0);
    }

    // =====================================================================================
    // Sending
    // =====================================================================================

    @Override
    public final void tell(T msg) {
        Objects.requireNonNull(msg, "tell: null message");
        if (dead) {
            system.deadLetter(msg, this);
            return;
        }
        if (bound != null) {
            tellBounded(msg);
            return;
        }
        mailbox.offer(msg);
        signal();
    }

    /** Tell to a bounded mailbox: take a place first, else apply the overflow policy. */
    private void tellBounded(T msg) {
        MailboxBound b = bound;
        while (!b.tryAcquire()) {
            switch (b.overflow) {
                case DROP -> {
                    system.deadLetter(msg, this);
                    return;
                }
                case FAIL -> throw new MailboxFullException(name, b.capacity);
                case BLOCK -> {
                    if (Scheduler.runningOnM() || isOwnConsumer()) {
                        // A behaviour actor (or a timer callback) must never block its M, and a
                        // process actor waiting for room in its own mailbox would wait forever.
                        throw new MailboxFullException(name, b.capacity);
                    }
                    b.await();
                    if (dead) {
                        system.deadLetter(msg, this); // died while we waited
                        return;
                    }
                }
            }
        }
        mailbox.offer(msg);
        signal();
    }

    /**
     * Tell that never blocks and never throws for a full mailbox: a full bounded mailbox makes
     * the message a dead letter whatever its {@link Overflow} policy.
     *
     * @return false if the message became a dead letter
     */
    final boolean offer(T msg) {
        Objects.requireNonNull(msg, "offer: null message");
        if (dead) {
            system.deadLetter(msg, this);
            return false;
        }
        MailboxBound b = bound;
        if (b != null && !b.tryAcquire()) {
            system.deadLetter(msg, this);
            return false;
        }
        mailbox.offer(msg);
        signal();
        return true;
    }

    /** True when the caller is this actor's own consumer goroutine (a process actor's body). */
    boolean isOwnConsumer() {
        return false;
    }

    /**
     * Consumer only: the next message, giving its place back to a bounded mailbox (unless it is a
     * system message, which took no place).
     */
    @SuppressWarnings("unchecked")
    final T take() {
        while (true) {
            Object m = mailbox.poll();
            if (m == null) {
                return null;
            }
            if (m instanceof WatchNotice n) { // a system message: it took no place
                if (noticeTaken(n)) {
                    return (T) n.msg;
                }
                continue; // its watch was ended by unwatch: never received
            }
            MailboxBound b = bound;
            if (b != null) {
                if (m instanceof SystemMessage sm) {
                    return (T) sm.msg;
                }
                b.taken();
            }
            return (T) m;
        }
    }

    /**
     * Enqueues a system message (a termination notice, an exit signal): like {@link #tell}, but
     * never refused, dropped or blocked by a bounded mailbox. A dead actor's are dead letters.
     */
    final void tellSystem(Object msg) {
        if (dead) {
            system.deadLetter(msg instanceof WatchNotice n ? n.msg : msg, this);
            return;
        }
        mailbox.offer(bound == null || msg instanceof WatchNotice ? msg : new SystemMessage(msg));
        signal();
    }

    /** A system message in a bounded mailbox: it holds no place of the bound. */
    record SystemMessage(Object msg) {
    }

    /** After enqueuing (or requesting a stop): make sure somebody consumes the mailbox. */
    final void signal() {
        Object s = state;
        if (s == IDLE) {
            if (STATE.compareAndSet(this, IDLE, SCHEDULED)) {
                scheduled();
            }
        } else if (s instanceof Waiter w) {
            // CAS on this very waiter: it cannot be the waiter of a later receive.
            if (STATE.compareAndSet(this, w, SCHEDULED) && w.claim(this)) {
                w.wake();
            }
        }
    }

    /** The caller won IDLE -> SCHEDULED and now holds the consumer role. */
    private void scheduled() {
        if (dead) {
            drainDead();
            release();
        } else {
            resume();
        }
    }

    /** Called by the system once the actor is registered and counted: starts it running. */
    abstract void start();

    /**
     * The consumer role was taken for a live actor: a behaviour actor submits its task; a
     * process actor whose body has ended just releases (only {@link #finish} gives it work).
     */
    abstract void resume();

    /** What the consumer should do next: something to handle, a stop to begin, dead letters. */
    final boolean hasWork() {
        if (dead) {
            return !mailbox.isEmpty();
        }
        if (stopping) {
            return false; // waiting for children: finish() will drain
        }
        return stopRequested || !mailbox.isEmpty();
    }

    /** The consumer gives up its role (see the class comment for why no wake-up is lost). */
    final void release() {
        while (true) {
            STATE.setVolatile(this, IDLE);
            if (!hasWork() || !STATE.compareAndSet(this, IDLE, SCHEDULED)) {
                return;
            }
            if (!dead) {
                resume();
                return;
            }
            drainDead();
        }
    }

    /** Consumer only: the rest of the mailbox becomes dead letters. */
    final void drainDead() {
        Object m;
        while ((m = take()) != null) {
            system.deadLetter(m, this);
        }
    }

    /** Process actors: publish {@code w} as the state, if still the consumer. */
    final void publishWaiter(Waiter w) {
        STATE.setVolatile(this, w);
    }

    /** Process actors: take the consumer role back from our own waiter; false if a sender did. */
    final boolean unpublishWaiter(Waiter w) {
        return STATE.compareAndSet(this, w, SCHEDULED);
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
        if (ws != null) {
            Terminated t = new Terminated(this, why);
            for (DeathListener l : ws.values()) {
                try {
                    l.onTerminated(t);
                } catch (RuntimeException e) {
                    system.failed(this, e);
                }
            }
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
    private boolean startWatch(WatchNotice n) {
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
    private void endWatch(ActorRef<?> c) {
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
    private boolean noticeTaken(WatchNotice n) {
        lock();
        try {
            return watching != null && watching.remove(n.target, n);
        } finally {
            unlock();
        }
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
    private void linkRemote(RemoteActorRef<?> other) {
        if (addLink(other)) {
            other.linkRemote(this);
        }
    }

    private void unlinkRemote(RemoteActorRef<?> other) {
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

    /** The context handed to the actor's own code. */
    final class Ctx implements ProcessContext<T> {
        @Override
        public ActorRef<T> self() {
            return ActorCell.this;
        }

        @Override
        public ActorSystem system() {
            return system;
        }

        @Override
        public <U> ActorRef<U> spawn(Behavior<U> behavior, Props props) {
            return system.spawnCell(ActorCell.this, new BehaviorCell<>(system, ActorCell.this, props, behavior));
        }

        @Override
        public <U> ActorRef<U> spawnProcess(ProcessBody<U> body, Props props) {
            return system.spawnCell(ActorCell.this, new ProcessCell<>(system, ActorCell.this, props, body));
        }

        @Override
        public void watch(ActorRef<?> other) {
            watch0(other, t -> t);
        }

        @Override
        public void watchWith(ActorRef<?> other, Function<Terminated, ? extends T> toMessage) {
            watch0(other, toMessage);
        }

        private void watch0(ActorRef<?> other, Function<Terminated, ?> toMessage) {
            ActorRef<?> c = other instanceof RemoteActorRef<?> r ? r : cellOf(other, "watch");
            WatchNotice n = new WatchNotice(c);
            if (!startWatch(n)) {
                return; // already watching it, its notice not taken yet: still one notice
            }
            ActorCell.watch(c, ActorCell.this, t -> {
                n.msg = Objects.requireNonNull(toMessage.apply(t), "watchWith: the function returned null");
                tellSystem(n);
            });
        }

        @Override
        public void unwatch(ActorRef<?> other) {
            if (other instanceof RemoteActorRef<?> r) {
                r.unwatchRemote(ActorCell.this);
                endWatch(r);
            } else if (other instanceof ActorCell<?> || other instanceof ChildRef<?>) {
                ActorCell<?> c = cellOf(other, "unwatch");
                c.removeWatcher(ActorCell.this);
                endWatch(c);
            }
        }

        @Override
        public void link(ActorRef<?> other) {
            if (other instanceof RemoteActorRef<?> r) {
                linkRemote(r);
            } else {
                ActorCell.this.link(cellOf(other, "link to"));
            }
        }

        @Override
        public void unlink(ActorRef<?> other) {
            if (other instanceof RemoteActorRef<?> r) {
                unlinkRemote(r);
            } else {
                ActorCell.this.unlink(cellOf(other, "unlink from"));
            }
        }

        @Override
        public void trapExits(boolean on) {
            trapExits = on;
        }

        @Override
        public Supervisor spawnSupervisor(SupervisorSpec spec, Props props) {
            return Supervisor.spawn(system, ActorCell.this, spec, props);
        }

        @Override
        public T receive() {
            return receive0(null, false, 0);
        }

        @Override
        public T receive(Duration timeout) {
            return receive0(null, true, System.nanoTime() + timeout.toNanos());
        }

        @Override
        public T receive(Predicate<? super T> filter) {
            return receive0(Objects.requireNonNull(filter), false, 0);
        }

        @Override
        public T receive(Predicate<? super T> filter, Duration timeout) {
            return receive0(Objects.requireNonNull(filter), true, System.nanoTime() + timeout.toNanos());
        }

        @Override
        public String toString() {
            return "ActorContext[" + name + "]";
        }
    }
}
