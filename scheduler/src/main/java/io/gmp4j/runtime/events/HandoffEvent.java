package io.gmp4j.runtime.events;

import jdk.jfr.Category;
import jdk.jfr.Description;
import jdk.jfr.Event;
import jdk.jfr.Label;
import jdk.jfr.Name;
import jdk.jfr.StackTrace;

/**
 * A P taken from its M and handed to another (Go's handoffp): from a syscall by sysmon's rule,
 * at a blocking syscall's start, or from a goroutine that ignored its preempt request (pinned in
 * a native frame or CPU-bound: the JDK does not say which). On by default.
 */
@Name("io.gmp4j.PHandoff")
@Label("P Handoff")
@Category({"gmp4j", "Scheduler"})
@Description("A P was handed off from its M: syscall (sysmon retake), syscall-block (entersyscallblock) or stuck (preempt ignored: pinned or CPU-bound)")
@StackTrace(false)
public final class HandoffEvent extends Event {
    private static final HandoffEvent PROBE = new HandoffEvent();

    /** Reasons: sysmon retook the P of a goroutine in a syscall. */
    public static final String SYSCALL = "syscall";
    /** The goroutine entered a syscall known to block (Go's entersyscallblock). */
    public static final String SYSCALL_BLOCK = "syscall-block";
    /** The goroutine ignored its preempt request for 10 ms: pinned or CPU-bound. */
    public static final String STUCK = "stuck";

    @Label("Runtime")
    String runtime;
    @Label("P")
    int p;
    @Label("Reason")
    String reason;

    /** True when a recording wants this event; no allocation. */
    public static boolean enabled() {
        return PROBE.isEnabled();
    }

    /** Commits one hand-off. Call after {@link #enabled}. */
    public static void emit(String runtime, int p, String reason) {
        HandoffEvent e = new HandoffEvent();
        e.runtime = runtime;
        e.p = p;
        e.reason = reason;
        e.commit();
    }
}
