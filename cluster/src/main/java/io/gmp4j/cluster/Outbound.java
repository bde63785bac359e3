package io.gmp4j.cluster;

import io.gmp4j.context.Cancelable;
import io.gmp4j.context.Context;
import io.gmp4j.context.ContextException;
import io.gmp4j.runtime.Scheduler;
import io.gmp4j.sync.Semaphore;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.eventbus.MessageProducer;

/**
 * The bounded outbound path to one node: at most {@code limit} of its messages are between
 * their sender and the wire at once. A message holds a place from its send until Vert.x has
 * written it to the node's connection (or failed to: the node is gone or had no handler).
 *
 * <p>At the bound, a goroutine or platform-thread sender parks until a place frees (only sends
 * to this node wait; sends to other nodes have their own bound); code that must not park (a
 * behaviour actor or timer on an M, a Vert.x event loop) has its message dropped and counted
 * instead. When the node is lost, parked senders wake and their messages are dropped.
 *
 * <p>Control frames (watch, link, exit, down) take no place: one per watch or link, never a
 * stream, and they must not wait on the path whose loss they report.
 */
final class Outbound {
    private final Semaphore places;
    private final MessageProducer<WireFrame> producer;
    /** Canceled when the node is lost: ends every wait for a place. */
    private final Cancelable gone = Context.withCancel(Context.background());

    Outbound(EventBus bus, String address, int limit) {
        this.places = new Semaphore(limit);
        this.producer = bus.sender(address);
    }

    /**
     * Takes a place for one message: parks if the bound is reached and the caller may park.
     * False (nothing taken) when it may not, or when the node is lost while it waits.
     */
    boolean acquire() {
        if (places.tryAcquire(1)) {
            return true;
        }
        if (Scheduler.runningOnM() || io.vertx.core.Context.isOnVertxThread()) {
            return false;
        }
        try {
            places.acquire(gone.ctx(), 1);
            return true;
        } catch (ContextException e) {
            return false;
        }
    }

    /** On the send context: writes {@code f}, whose place frees once the write is done. */
    void write(WireFrame f) {
        producer.write(f).onComplete(ar -> places.release(1));
    }

    /** Writes a control frame, which holds no place. */
    void writeControl(WireFrame f) {
        producer.write(f);
    }

    /** The node is lost: wakes the parked senders, whose messages are dropped. */
    void lost() {
        gone.cancel();
    }

    /** Places taken now (tests). */
    long inFlight() {
        return places.held();
    }
}
