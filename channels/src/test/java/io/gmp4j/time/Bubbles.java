package io.gmp4j.time;

import io.gmp4j.runtime.Scheduler;
import static org.junit.jupiter.api.Assertions.fail;

import io.gmp4j.GoRuntime;
import io.gmp4j.runtime.Bubble;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A synctest bubble for this module's own tests, which cannot use gmp4j-test's
 * {@code SyncTest.run} (that module depends on this one): the same run on the runtime's
 * {@link Bubble} SPI, failing the test on the bubble's deadlock or a goroutine's panic.
 */
public final class Bubbles {
    private Bubbles() {
    }

    /** Runs {@code body} in a new bubble on {@code rt}; returns when the bubble's goroutines have all ended. */
    public static void run(GoRuntime rt, Runnable body) {
        AtomicReference<Throwable> failed = new AtomicReference<>();
        Bubble b = Bubble.start(Scheduler.of(rt), () -> {
            try {
                body.run();
            } catch (Throwable t) {
                failed.set(t);
            }
        });
        String deadlock = b.awaitEnd();
        Throwable t = failed.get() != null ? failed.get() : b.panic();
        if (t instanceof RuntimeException re) {
            throw re;
        }
        if (t instanceof Error e) {
            throw e;
        }
        if (t != null) {
            throw new AssertionError(t);
        }
        if (deadlock != null) {
            fail("deadlock: all goroutines in bubble are blocked\n" + deadlock);
        }
    }

    /** Go's synctest.Wait: every other goroutine of the caller's bubble is durably blocked. */
    public static void await() {
        Bubble.await();
    }
}
