package io.gmp4j.runtime.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** A P's full local run queue moved half of itself to the global queue (Go's runqputslow). On by default. */
@Name("io.gmp4j.RunqOverflow")
@Label("Run Queue Overflow")
@Category({"gmp4j", "Scheduler"})
@Description("A full local run queue moved half of its tasks and the new one to the global queue")
@StackTrace(false)
public final class RunqOverflowEvent extends Event {
    private static final RunqOverflowEvent PROBE = new RunqOverflowEvent();

    @Label("Runtime")
    String runtime;
    @Label("P")
    int p;
    @Label("Tasks Moved")
    int moved;

    /** True when a recording wants this event; no allocation. */
    public static boolean enabled() {
        return PROBE.isEnabled();
    }

    /** Commits one overflow. Call after {@link #enabled}. */
    public static void emit(String runtime, int p, int moved) {
        RunqOverflowEvent e = new RunqOverflowEvent();
        e.runtime = runtime;
        e.p = p;
        e.moved = moved;
        e.commit();
    }
}
