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
}
