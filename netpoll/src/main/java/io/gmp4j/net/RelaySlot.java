package io.gmp4j.net;

/**
 * The {@link Relay} through one side of a {@link Conn}, or none: {@link ConnReader} holds the
 * one reading from the connection, {@link ConnWriter} the one writing into it. The copying
 * goroutine sets it under the connection's lock after the side checked that its state allows a
 * relay ({@link #attachLocked}); the loop clears it when the relay ends ({@link #detachLocked},
 * under the lock) and reads it without the lock ({@link #get}, a volatile read). Every event
 * that ends a relay changes the side's state under the lock first and reads this after
 * ({@link #end}, from {@link Conn#endRelays}), so either the attach sees the new state or the
 * event sees the relay.
 */
final class RelaySlot {
    private volatile Relay relay;

    /** The relay through this side now, or null. */
    Relay get() {
        return relay;
    }

    /**
     * Caller holds the connection's lock and found the side's state fit for a relay: {@code r}
     * becomes the relay through this side unless one is there already; returns whether it did.
     */
    boolean attachLocked(Relay r) {
        if (relay != null) {
            return false;
        }
        relay = r;
        return true;
    }

    /** Caller holds the connection's lock: clears this side if {@code r} is its relay. */
    void detachLocked(Relay r) {
        if (relay == r) {
            relay = null;
        }
    }

    /** Ends the relay through this side, if any (the caller changed the state that ends it under the lock first). */
    void end() {
        Relay r = relay;
        if (r != null) {
            r.finish();
        }
    }
}
