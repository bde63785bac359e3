package io.gmp4j.runtime.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;
import jdk.jfr.Timespan;

/** Sysmon asked a P's goroutine to yield: it held the P past Go's forcePreemptNS. On by default. */
@Name("io.gmp4j.PreemptRequest")
@Label("Preempt Request")
@Category({"gmp4j", "Scheduler"})
@Description("Sysmon set a P's preempt flag: one goroutine ran on it past 10 ms")
@StackTrace(false)
public final class PreemptRequestEvent extends Event {
    private static final PreemptRequestEvent PROBE = new PreemptRequestEvent();

    @Label("Runtime")
    String runtime;
    @Label("P")
    int p;
    @Label("Running For")
    @Description("How long sysmon has seen the same task on the P")
    @Timespan(Timespan.NANOSECONDS)
    long runningFor;

    /** True when a recording wants this event; no allocation. */
    public static boolean enabled() {
        return PROBE.isEnabled();
    }

    /** Commits one request. Call after {@link #enabled}. */
    public static void emit(String runtime, int p, long runningForNanos) {
        PreemptRequestEvent e = new PreemptRequestEvent();
        e.runtime = runtime;
        e.p = p;
        e.runningFor = runningForNanos;
        e.commit();
    }
}
