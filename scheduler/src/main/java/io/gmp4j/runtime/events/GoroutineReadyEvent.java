package io.gmp4j.runtime.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Enabled;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * A goroutine made runnable (Go's goready, a new goroutine's first placement, or a yield's
 * re-queue), by whom and where it landed. Committed just before the task is queued, so it
 * precedes the woken goroutine's next run. Once per wake-up: off by default.
 */
@Name("io.gmp4j.GoroutineReady")
@Label("Goroutine Ready")
@Category({"gmp4j", "Goroutine"})
@Description("A goroutine became runnable: who readied it and where it was queued")
@StackTrace(false)
@Enabled(false)
public final class GoroutineReadyEvent extends Event {
    private static final GoroutineReadyEvent PROBE = new GoroutineReadyEvent();

    /** Landings: the caller's P's runnext slot. */
    public static final String RUNNEXT = "runnext";
    /** The tail of the caller's P's local run queue. */
    public static final String LOCAL = "local";
    /** The global run queue. */
    public static final String GLOBAL = "global";
    /** A yielding goroutine re-queued at its own P's tail (the waker is itself). */
    public static final String YIELD_LOCAL = "yield-local";
    /** A yielding goroutine re-queued on the global queue (gosched, preemption; the waker is itself). */
    public static final String YIELD_GLOBAL = "yield-global";
    /** Collected into a poll turn's batch, made runnable as one list at the turn's end. */
    public static final String POLL_BATCH = "poll-batch";
    /** Into a netpoll result list that the polling M runs. */
    public static final String NETPOLL = "netpoll";

    @Label("Runtime")
    String runtime;
    @Label("Goroutine Id")
    @Description("The readied goroutine; 0 for a plain task")
    long goroutineId;
    @Label("Waker Id")
    @Description("The goroutine that readied it (itself for a yield); 0 when not a goroutine (an M, the poller, another thread)")
    long wakerId;
    @Label("Landing")
    @Description("runnext, local, global, yield-local, yield-global, poll-batch or netpoll")
    String landing;
    @Label("P")
    @Description("The waker's P, -1 when it holds none")
    int p;

    /** True when a recording wants this event; no allocation. */
    public static boolean enabled() {
        return PROBE.isEnabled();
    }

    /** Commits one ready. Call after {@link #enabled}. */
    public static void emit(String runtime, long goid, long wakerId, String landing, int p) {
        GoroutineReadyEvent e = new GoroutineReadyEvent();
        e.runtime = runtime;
        e.goroutineId = goid;
        e.wakerId = wakerId;
        e.landing = landing;
        e.p = p;
        e.commit();
    }
}
