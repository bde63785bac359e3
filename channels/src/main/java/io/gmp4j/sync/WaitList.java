package io.gmp4j.sync;

/** A FIFO of parked {@link WaitNode}s. Guarded by its owner's {@link io.gmp4j.runtime.ShortLock}. */
final class WaitList {
    private WaitNode first;
    private WaitNode last;
    private int size;

    boolean isEmpty() {
        return first == null;
    }

    int size() {
        return size;
    }

    WaitNode peek() {
        return first;
    }

    void enqueue(WaitNode n) {
        n.prev = last;
        n.next = null;
        n.queued = true;
        if (last == null) {
            first = n;
        } else {
            last.next = n;
        }
        last = n;
        size++;
    }

    /** Removes and returns the head, or null. */
    WaitNode poll() {
        WaitNode n = first;
        if (n != null) {
            remove(n);
        }
        return n;
    }

    /** Removes {@code n} if it is still queued here; true if it was. */
    boolean remove(WaitNode n) {
        if (!n.queued) {
            return false;
        }
        WaitNode p = n.prev;
        WaitNode x = n.next;
        if (p == null) {
            first = x;
        } else {
            p.next = x;
        }
        if (x == null) {
            last = p;
        } else {
            x.prev = p;
        }
        n.prev = null;
        n.next = null;
        n.queued = false;
        size--;
        return true;
    }

    /**
     * Moves every waiter into a new list and leaves this one empty: the owner takes
     * them under its lock and wakes them with {@link #wakeAll} after releasing it.
     */
    WaitList takeAll() {
        WaitList all = new WaitList();
        all.first = first;
        all.last = last;
        all.size = size;
        for (WaitNode n = first; n != null; n = n.next) {
            n.queued = false; // no longer removable from this list
        }
        first = null;
        last = null;
        size = 0;
        return all;
    }

    /** Wakes every waiter of a list made by {@link #takeAll}; called without any lock held. */
    void wakeAll() {
        WaitNode n = first;
        first = null;
        last = null;
        size = 0;
        while (n != null) {
            WaitNode next = n.next;
            n.next = null;
            n.prev = null;
            n.waiter.wake();
            n = next;
        }
    }
}
