package io.gmp4j.runtime.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * An empty event an M commits just before each of its own events. On JDK 25 a carrier
 * thread's first commit after a virtual thread mounted on it committed an event is dropped
 * (the carrier's event writer comes back invalid, and the commit that finds it so resets it
 * and discards its event): this one is the commit that may be dropped, so the real one after it
 * is kept. Carries nothing; {@link TraceConverter} ignores it.
 */
@Name("io.gmp4j.CarrierSync")
@Label("Carrier Sync")
@Category({"gmp4j", "Internal"})
@Description("Empty: committed by an M before its own event, absorbing JDK 25's drop of a carrier's first commit after a virtual thread's")
@StackTrace(false)
public final class CarrierSyncEvent extends Event {
    private static final CarrierSyncEvent PROBE = new CarrierSyncEvent();

    /** True when a recording wants this event; no allocation. */
    public static boolean enabled() {
        return PROBE.isEnabled();
    }

    /** Commits one; a no-op while the event is off. */
    public static void sync() {
        if (PROBE.isEnabled()) {
            new CarrierSyncEvent().commit();
        }
    }
}
