package io.gmp4j.runtime.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * A network poll made goroutines runnable as one batch: an M's netpoll in findRunnable, or a
 * poll turn's end (Go's injectglist). On by default: once per poll that found something.
 */
@Name("io.gmp4j.NetpollBatch")
@Label("Netpoll Batch")
@Category({"gmp4j", "Scheduler"})
@Description("A network poll made a batch of goroutines runnable")
@StackTrace(false)
public final class NetpollBatchEvent extends Event {
    private static final NetpollBatchEvent PROBE = new NetpollBatchEvent();

    /** Sources: an M's netpoll in findRunnable (the poll goroutines it found). */
    public static final String FIND_RUNNABLE = "findRunnable";
    /** A poll turn's end (the goroutines the turn readied). */
    public static final String TURN = "turn";
    /** A poll goroutine back from a blocking turn without a P hands its batch to the global queue. */
    public static final String SYSCALL_EXIT = "syscall-exit";

    @Label("Runtime")
    String runtime;
    @Label("P")
    @Description("The P that takes the batch, -1 when none (all of it goes to the global queue)")
    int p;
    @Label("Goroutines")
    int count;
    @Label("Source")
    String source;

    /** True when a recording wants this event; no allocation. */
    public static boolean enabled() {
        return PROBE.isEnabled();
    }

    /** Commits one batch. Call after {@link #enabled}. */
    public static void emit(String runtime, int p, int count, String source) {
        NetpollBatchEvent e = new NetpollBatchEvent();
        e.runtime = runtime;
        e.p = p;
        e.count = count;
        e.source = source;
        e.commit();
    }
}
