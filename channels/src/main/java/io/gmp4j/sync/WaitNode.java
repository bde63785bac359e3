package io.gmp4j.sync;

import io.gmp4j.runtime.Waiter;

/**
 * One parked thread in a {@link WaitList}: Go's sudog on a sema root. The waker writes
 * {@link #granted} before {@link Waiter#wake()}, which publishes it.
 */
final class WaitNode {
    final Waiter waiter;
    /** What the waiter asks for: a semaphore weight, or a kind (reader/writer). */
    final long need;
    /** Set by the waker: the wait ended with the request granted. */
    boolean granted;
    WaitNode prev;
    WaitNode next;
    boolean queued;

    WaitNode(Waiter waiter, long need) {
        this.waiter = waiter;
        this.need = need;
    }

    /** A node for the calling thread. */
    static WaitNode current(long need) {
        return new WaitNode(Waiter.current(), need);
    }
}
