package io.gmp4j.runtime.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** A spinning M's P stole work from another P's run queue (Go's runqsteal). On by default. */
@Name("io.gmp4j.Steal")
@Label("Work Steal")
@Category({"gmp4j", "Scheduler"})
@Description("A P stole tasks from another P's run queue")
@StackTrace(false)
public final class StealEvent extends Event {
    private static final StealEvent PROBE = new StealEvent();

    @Label("Runtime")
    String runtime;
    @Label("Thief P")
    int p;
    @Label("Victim P")
    int victim;
    @Label("Tasks")
    @Description("Tasks taken, the one run next included")
    int count;

    /** True when a recording wants this event; no allocation. */
    public static boolean enabled() {
        return PROBE.isEnabled();
    }

    /** Commits one steal. Call after {@link #enabled}. */
    public static void emit(String runtime, int p, int victim, int count) {
        StealEvent e = new StealEvent();
        e.runtime = runtime;
        e.p = p;
        e.victim = victim;
        e.count = count;
        e.commit();
    }
}
