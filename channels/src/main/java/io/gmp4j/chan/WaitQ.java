package io.gmp4j.chan;

/**
 * Go's waitq: a FIFO of the sudogs parked on one side of a channel. Guarded by the channel's
 * lock.
 */
final class WaitQ {
    private static final java.lang.invoke.VarHandle FIRST;

    static {
        try {
            FIRST = java.lang.invoke.MethodHandles.lookup().findVarHandle(WaitQ.class, "first", Sudog.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private Sudog first;
    private Sudog last;

    boolean isEmpty() {
        return first == null;
    }

    /** Emptiness read without the lock, with acquire semantics (the fast paths only). */
    boolean isEmptyAcquire() {
        return FIRST.getAcquire(this) == null;
    }

    void enqueue(Sudog sg) {
        sg.next = null;
        sg.prev = last;
        sg.queued = true;
        if (last == null) {
            first = sg;
        } else {
            last.next = sg;
        }
        last = sg;
    }

    /**
     * Go's dequeue: removes and returns the first waiter that can still be woken. A select's
     * sudog whose select already fired through another case (its claim is lost) is dropped on
     * the way: that select removes the rest of its sudogs itself.
     */
    Sudog dequeue() {
        while (true) {
            Sudog sg = first;
            if (sg == null) {
                return null;
            }
            unlink(sg);
            if (sg.isSelect && !sg.waiter.claim(sg)) {
                continue;
            }
            return sg;
        }
    }

    /** Go's dequeueSudoG: removes {@code sg} if it is still queued here. */
    void remove(Sudog sg) {
        if (sg.queued) {
            unlink(sg);
        }
    }

    private void unlink(Sudog sg) {
        Sudog p = sg.prev;
        Sudog n = sg.next;
        if (p == null) {
            first = n;
        } else {
            p.next = n;
        }
        if (n == null) {
            last = p;
        } else {
            n.prev = p;
        }
        sg.next = null;
        sg.prev = null;
        sg.queued = false;
    }
}
