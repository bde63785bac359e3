package io.gmp4j.runtime;

import io.gmp4j.GoRuntime;
import io.gmp4j.runtime.events.GoroutineReadyEvent;
import io.gmp4j.runtime.events.GoroutineRunEvent;
import io.gmp4j.runtime.events.NetpollBatchEvent;
import io.gmp4j.runtime.events.Settings;
import io.gmp4j.runtime.events.StealEvent;
import jdk.jfr.Recording;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The events' disabled path allocates nothing: every decision point's call, a million times,
 * with no recording at all and with a recording of the defaults (where the per-decision events
 * are off), leaves the thread's allocated-bytes counter where it was.
 */
class SchedTraceAllocationTest {
    private static final int CALLS = 1_000_000;
    /** Far below one object per call (16 bytes at least): room for the counter's own reads. */
    private static final long SLACK_BYTES = 64 * 1024;

    @Test
    void theDisabledPathAllocatesNothing() throws Exception {
        try (GoRuntime rt = GoRuntime.builder().maxProcs(1).name("trace-alloc").build()) {
            Scheduler s = Scheduler.of(rt);
            P p = s.allp[0];
            M m = new M(s, 99, false); // never started: only its fields are read
            G g = new G(1, s);
            g.waitReason = "chan receive";
            Runnable task = () -> {
            };
            assertFalse(GoroutineRunEvent.enabled(), "no recording: every event off");
            assertFalse(StealEvent.enabled(), "no recording: every event off");
            long none = allocated(() -> everyDecision(s, m, p, g, task));
            assertTrue(none < SLACK_BYTES, () -> CALLS + " calls with no recording allocated " + none + " bytes");

            try (Recording rec = new Recording(Settings.configuration(Settings.DEFAULT))) {
                rec.start();
                assertFalse(GoroutineRunEvent.enabled(), "the defaults turn run off");
                assertFalse(GoroutineReadyEvent.enabled(), "the defaults turn ready off");
                assertTrue(StealEvent.enabled(), "the defaults turn steal on");
                long defaults = allocated(() -> perDecision(s, m, p, g, task));
                assertTrue(defaults < SLACK_BYTES, () -> CALLS + " calls under the defaults allocated " + defaults + " bytes");
                rec.stop();
            }
        }
    }

    /** Bytes the calling thread allocates running {@code body} (after a warm-up run). */
    private static long allocated(Runnable body) {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        body.run(); // warm-up: the JIT compiles the calls
        long before = mx.getCurrentThreadAllocatedBytes();
        body.run();
        return mx.getCurrentThreadAllocatedBytes() - before;
    }

    /** The per-decision points (off under the defaults). */
    private static void perDecision(Scheduler s, M m, P p, G g, Runnable task) {
        for (int i = 0; i < CALLS; i++) {
            SchedTrace.ready(s, task, GoroutineReadyEvent.RUNNEXT);
            SchedTrace.runEnd(SchedTrace.runBegin(s, m, p, task));
            SchedTrace.parkEnd(SchedTrace.parkBegin(g));
            SchedTrace.create(s, m, g);
            SchedTrace.end(s, g);
        }
    }

    /** Every decision point (all off with no recording). */
    private static void everyDecision(Scheduler s, M m, P p, G g, Runnable task) {
        perDecision(s, m, p, g, task);
        for (int i = 0; i < CALLS; i++) {
            SchedTrace.steal(s, p, p, 1);
            SchedTrace.handoff(s, p, "stuck");
            SchedTrace.preempt(s, p, 10_000_000);
            SchedTrace.overflow(s, p);
            SchedTrace.netpollBatch(s, 0, 1, NetpollBatchEvent.TURN);
        }
    }
}
