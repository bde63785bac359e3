package io.gmp4j.runtime.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** A goroutine's function returned (or threw): Go's goexit. Once per goroutine: off by default. */
@Name("io.gmp4j.GoroutineEnd")
@Label("Goroutine End")
@Category({"gmp4j", "Goroutine"})
@Description("A goroutine ended")
@StackTrace(false)
@Enabled(false)
public final class GoroutineEndEvent extends Event {
    private static final GoroutineEndEvent PROBE = new GoroutineEndEvent();

    @Label("Runtime")
    String runtime;
    @Label("Goroutine Id")
    long goroutineId;
    @Label("P")
    @Description("The P it ended on, -1 when its M held none")
    int p;

    /** True when a recording wants this event; no allocation. */
    public static boolean enabled() {
        return PROBE.isEnabled();
    }

    /** Commits one end. Call after {@link #enabled}. */
    public static void emit(String runtime, long goid, int p) {
        GoroutineEndEvent e = new GoroutineEndEvent();
        e.runtime = runtime;
        e.goroutineId = goid;
        e.p = p;
        e.commit();
    }
}
