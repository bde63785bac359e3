package io.gmp4j.actor;

import io.gmp4j.runtime.Scheduler;
import io.gmp4j.runtime.ShortLock;
import io.gmp4j.runtime.Waiter;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import org.jctools.queues.MessagePassingQueue;
import org.jctools.queues.unpadded.MpscUnboundedUnpaddedArrayQueue;


/**
 * The mailbox half of an actor (both kinds): the MPSC mailbox, the scheduling state that says who
 * consumes it, sending, and going idle. {@link ActorCell} adds the lifecycle (stop, children,
 * watchers, links) and the context.
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
abstract class MailboxCell<T> implements ActorRef<T> {
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

    static final VarHandle STATE;
    private static final VarHandle LOCK;
    /** Mailbox chunk: small, because a million idle actors each hold one. */
    static final int MAILBOX_CHUNK = 16;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            STATE = l.findVarHandle(MailboxCell.class, "state", Object.class);
            LOCK = l.findVarHandle(MailboxCell.class, "lock", int.class);
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


    /** IDLE, SCHEDULED, or the Waiter of a process parked in receive. */
    private volatile Object state;
    /** Set by {@link #stop}; the consumer begins stopping when it sees it. */
    volatile boolean stopRequested;
    /** Set once stopping began (no message is handled after); written under the lock. */
    volatile boolean stopping;
    /** Set by {@link #finish}: messages go straight to dead letters. */
    volatile boolean dead;

    /** Inline ShortLock word: guards the lifecycle fields of {@link ActorCell}. */
    private volatile int lock;

    MailboxCell(ActorSystem system, ActorCell<?> parent, Props props, Object initialState) {
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

    /** {@link ActorCell}: {@code n} is taken, which ends its watch; false if that watch had ended. */
    abstract boolean noticeTaken(WatchNotice n);
}
