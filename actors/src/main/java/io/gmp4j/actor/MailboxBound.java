package io.gmp4j.actor;

import io.gmp4j.runtime.ShortLock;
import io.gmp4j.runtime.Waiter;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayDeque;

/**
 * The bound of a bounded mailbox: a count of the places taken and the senders waiting for one
 * (policy {@link Overflow#BLOCK}). Unbounded mailboxes have none, so their {@code tell} pays
 * only a null check.
 *
 * <p>A sender takes a place ({@link #tryAcquire}, a CAS below {@link #capacity}) before it
 * enqueues; the consumer gives the place back ({@link #taken}) after it took the message out.
 * The queue therefore never holds more than {@code capacity} messages.
 *
 * <p>Waiting without a lost wake-up (Dekker, as in the actor's idle protocol): a blocked sender
 * (1) adds its waiter and increments {@link #waiting} under the lock, (2) re-reads
 * {@link #count}; the consumer (1) decrements {@code count} (atomic), (2) reads
 * {@code waiting}. All are synchronization actions, so either the sender sees the freed place
 * (it takes its waiter back and retries) or the consumer sees the waiter (and wakes one). If the
 * sender could not take its waiter back, the consumer took it and will wake it: the sender parks
 * to consume that wake-up. One place freed wakes one sender; a sender that loses the place to
 * another one queues again, and the place it lost is itself freed later, waking the next.
 */
final class MailboxBound {
    private static final VarHandle COUNT;
    static final String WAIT_REASON = "actor mailbox full";

    static {
        try {
            COUNT = MethodHandles.lookup().findVarHandle(MailboxBound.class, "count", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final int capacity;
    final Overflow overflow;
    /** Places taken: messages enqueued, or about to be, and not yet taken out. */
    private volatile int count;
    /** Number of waiters in {@link #waiters}; written under the lock, read without it. */
    private volatile int waiting;
    private final ShortLock lock = new ShortLock();
    private ArrayDeque<Waiter> waiters;
    /** Set when the actor died: nobody waits any more. */
    private boolean closed;

    MailboxBound(int capacity, Overflow overflow) {
        this.capacity = capacity;
        this.overflow = overflow;
    }

    /** Takes a place; false if the mailbox is full. */
    boolean tryAcquire() {
        while (true) {
            int c = count;
            if (c >= capacity) {
                return false;
            }
            if (COUNT.compareAndSet(this, c, c + 1)) {
                return true;
            }
        }
    }

    /** Consumer: a message left the mailbox; wake one waiting sender, if any. */
    void taken() {
        COUNT.getAndAdd(this, -1);
        if (waiting != 0) {
            Waiter w;
            lock.lock();
            try {
                w = waiters == null ? null : waiters.poll();
                if (w != null) {
                    waiting--;
                }
            } finally {
                lock.unlock();
            }
            if (w != null) {
                w.wake();
            }
        }
    }

    /**
     * A sender found the mailbox full: waits until a place may be free or the actor died. Returns
     * without a guarantee of a place: the caller retries {@link #tryAcquire} (and checks death).
     */
    void await() {
        Waiter w = Waiter.current();
        lock.lock();
        try {
            if (closed) {
                return;
            }
            if (waiters == null) {
                waiters = new ArrayDeque<>();
            }
            waiters.add(w);
            waiting++;
        } finally {
            lock.unlock();
        }
        if (count < capacity) {
            boolean removed;
            lock.lock();
            try {
                removed = waiters != null && waiters.remove(w);
                if (removed) {
                    waiting--;
                }
            } finally {
                lock.unlock();
            }
            if (removed) {
                return;
            }
            // Taken by the consumer or by close(): its wake-up is on the way.
        }
        w.park(WAIT_REASON);
    }

    /** The actor died (its {@code dead} flag is already set): wakes every waiting sender. */
    void close() {
        ArrayDeque<Waiter> ws;
        lock.lock();
        try {
            closed = true;
            ws = waiters;
            waiters = null;
            waiting = 0;
        } finally {
            lock.unlock();
        }
        if (ws != null) {
            for (Waiter w : ws) {
                w.wake();
            }
        }
    }

    /** Places taken now (a snapshot). */
    int count() {
        return count;
    }

    /** Senders waiting now (a snapshot). */
    int waiting() {
        return waiting;
    }
}
