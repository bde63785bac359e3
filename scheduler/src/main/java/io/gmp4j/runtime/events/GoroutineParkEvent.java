package io.gmp4j.runtime.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Threshold;

/**
 * A goroutine's wait in {@code G.park} (Go's gopark), from the park to its return, with Go's
 * wait reason ("chan receive", "select", "sleep"...). Once per blocking operation: off by
 * default; when turned on without a threshold, waits shorter than 20 ms are dropped.
 */
@Name("io.gmp4j.GoroutinePark")
@Label("Goroutine Park")
@Category({"gmp4j", "Goroutine"})
@Description("A goroutine waited in gopark, with Go's wait reason")
@StackTrace(false)
@Enabled(false)
@Threshold("20 ms")
public final class GoroutineParkEvent extends Event {
    private static final GoroutineParkEvent PROBE = new GoroutineParkEvent();

    @Label("Runtime")
    String runtime;
    @Label("Goroutine Id")
    long goroutineId;
    @Label("Wait Reason")
    String reason;

    /** True when a recording wants this event; no allocation. */
    public static boolean enabled() {
        return PROBE.isEnabled();
    }

    /** Starts the wait's clock; {@link #finish} ends and commits it. Call after {@link #enabled}. */
    public static GoroutineParkEvent start(String runtime, long goid, String reason) {
        GoroutineParkEvent e = new GoroutineParkEvent();
        e.runtime = runtime;
        e.goroutineId = goid;
        e.reason = reason;
        e.begin();
        return e;
    }

    /** Ends the wait and commits it if it lasted at least the recording's threshold. */
    public void finish() {
        end();
        if (shouldCommit()) {
            commit();
        }
    }
}
