package io.gmp4j.vertx;

import java.util.concurrent.atomic.AtomicLong;

/**
 * A running link between an event-bus address and goroutines, made by {@link GoEventBus}: its
 * counts, and {@link #close} to stop it. Every message it took is accounted for exactly once:
 * {@link #delivered} or {@link #dropped}.
 */
public final class EventBusBridge implements AutoCloseable {
    private final String description;
    private final AtomicLong delivered = new AtomicLong();
    private final AtomicLong dropped = new AtomicLong();
    private final Runnable stop;
    private volatile boolean closed;

    EventBusBridge(String description, Runnable stop) {
        this.description = description;
        this.stop = stop;
    }

    /**
     * Messages handed on: into the channel (address to channel), to a handler goroutine
     * (per-message consumer), or accepted by the event bus (channel to address).
     */
    public long delivered() {
        return delivered.get();
    }

    /**
     * Messages lost, each counted: refused because the bridge's buffer was full (address to
     * channel, per-message consumer; a request among them was failed back to its sender), or
     * refused by the event bus (channel to address: no consumer for a send).
     */
    public long dropped() {
        return dropped.get();
    }

    /**
     * Stops the bridge: an address's consumer is unregistered (what it took before goes on to
     * the channel or the handlers, then an address-to-channel bridge closes its channel); a
     * channel-to-address bridge stops taking values from its channel. Idempotent.
     */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            stop.run();
        }
    }

    /** True once {@link #close} was called. */
    public boolean isClosed() {
        return closed;
    }

    void delivered(long n) {
        delivered.addAndGet(n);
    }

    void dropped(long n) {
        dropped.addAndGet(n);
    }

    @Override
    public String toString() {
        return "EventBusBridge[" + description + ", delivered " + delivered() + ", dropped " + dropped()
                + (closed ? ", closed" : "") + "]";
    }
}
