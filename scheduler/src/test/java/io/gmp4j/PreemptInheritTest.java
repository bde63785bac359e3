package io.gmp4j;

import io.gmp4j.runtime.Scheduler;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.*;

/**
 * A preemption request outlives the goroutine it was made for while the time slice goes on:
 * sysmon asks the P's goroutine to give way after 10 ms of one slice; when that goroutine parks
 * and its P runs the goroutine in runnext, the new one inherits the slice (no new schedtick),
 * and sysmon must ask it too (Go's retake asks every round while the slice is over). Without
 * that, a spinning goroutine that inherited a slice is never asked, and the agent's loop
 * checks never yield: a hog starves the run queue at procs 1.
 */
@ExtendWith(NoUncaughtExceptions.class)
class PreemptInheritTest {
    /** How long either goroutine waits for a request before the test fails. */
    private static final long BOUND_NANOS = TimeUnit.SECONDS.toNanos(10);

    private static volatile boolean heirAsked;
    private static volatile boolean heirDone;

    @Test
    void theGoroutineThatInheritsTheSliceIsAskedToo() {
        heirAsked = false;
        heirDone = false;
        try (GoRuntime rt = GoRuntime.builder().maxProcs(1).name("preempt-inherit").build()) {
            rt.main(() -> {
                Thread first = Thread.currentThread();
                // The heir goes to this P's runnext: it runs when the first goroutine parks,
                // inheriting what is left of the slice.
                Go.go(() -> {
                    heirAsked = spinUntilAsked();
                    heirDone = true;
                    LockSupport.unpark(first);
                });
                assertTrue(spinUntilAsked(), () -> "sysmon never asked the first goroutine: " + rt.stats());
                while (!heirDone) {
                    LockSupport.park(); // a park, not a yield: the heir inherits the slice
                }
            });
            assertTrue(heirAsked, () -> "the goroutine that inherited the slice was never asked: " + rt.stats());
        }
    }

    /** Spins, with no safe point, until the P has a preempt request; false after the bound. */
    private static boolean spinUntilAsked() {
        long end = System.nanoTime() + BOUND_NANOS;
        while (System.nanoTime() - end < 0) {
            if (Scheduler.preemptRequested()) {
                return true;
            }
            Thread.onSpinWait();
        }
        return false;
    }
}
