package io.gmp4j.runtime.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/** A goroutine created (Go's newproc), by whom. Once per goroutine: off by default. */
@Name("io.gmp4j.GoroutineCreate")
@Label("Goroutine Create")
@Category({"gmp4j", "Goroutine"})
@Description("A goroutine was created")
@StackTrace(false)
@Enabled(false)
public final class GoroutineCreateEvent extends Event {
    private static final GoroutineCreateEvent PROBE = new GoroutineCreateEvent();

    @Label("Runtime")
    String runtime;
    @Label("Goroutine Id")
    long goroutineId;
    @Label("Parent Id")
    @Description("The creating goroutine; 0 when created from a thread that is not a goroutine")
    long parentId;
    @Label("P")
    @Description("The creator's P, -1 when it holds none")
    int p;

    /** True when a recording wants this event; no allocation. */
    public static boolean enabled() {
        return PROBE.isEnabled();
    }

    /** Commits one creation. Call after {@link #enabled}. */
    public static void emit(String runtime, long goid, long parentId, int p) {
        GoroutineCreateEvent e = new GoroutineCreateEvent();
        e.runtime = runtime;
        e.goroutineId = goid;
        e.parentId = parentId;
        e.p = p;
        e.commit();
    }
}
