package io.gmp4j.runtime.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * One run of a goroutine (or of a plain task) on a P: from the M's call into the task (the
 * continuation mounts) to its return (the goroutine parked, yielded or ended). A slice of the
 * timeline. Once per scheduling decision: off by default.
 */
@Name("io.gmp4j.GoroutineRun")
@Label("Goroutine Run")
@Category({"gmp4j", "Scheduler"})
@Description("A goroutine or plain task ran on a P, from mount to unmount (park, yield or end)")
@StackTrace(false)
@Enabled(false)
public final class GoroutineRunEvent extends Event {
    private static final GoroutineRunEvent PROBE = new GoroutineRunEvent();

    @Label("Runtime")
    String runtime;
    @Label("Goroutine Id")
    @Description("0 for a plain task (an actor's mailbox run, a timer callback)")
    long goroutineId;
    @Label("P")
    int p;
    @Label("M")
    int m;
    @Label("Inherited Time Slice")
    @Description("Taken from runnext, sharing the time slice of the task before it")
    boolean inheritTime;
    @Label("Task Class")
    @Description("The plain task's class; null for a goroutine")
    Class<?> taskClass;

    /** True when a recording wants this event; no allocation. */
    public static boolean enabled() {
        return PROBE.isEnabled();
    }

    /** Starts the event's clock; {@link #finish} ends and commits it. Call after {@link #enabled}. */
    public static GoroutineRunEvent start(String runtime, long goid, int p, int m, boolean inheritTime,
                                          Class<?> taskClass) {
        GoroutineRunEvent e = new GoroutineRunEvent();
        e.runtime = runtime;
        e.goroutineId = goid;
        e.p = p;
        e.m = m;
        e.inheritTime = inheritTime;
        e.taskClass = taskClass;
        e.begin();
        return e;
    }

    /** Ends the run and commits it if the recording's threshold lets it through. */
    public void finish() {
        end();
        if (shouldCommit()) {
            commit();
        }
    }
}
