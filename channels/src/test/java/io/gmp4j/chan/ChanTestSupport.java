package io.gmp4j.chan;

import io.gmp4j.runtime.Scheduler;
import io.gmp4j.GoRuntime;
import io.gmp4j.TestSupport;
import io.gmp4j.runtime.G;
import io.gmp4j.runtime.Waiter;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Helpers for the channel tests: runtimes per GOMAXPROCS, a Go-style wait group that collects
 * the failures of goroutines and platform threads, and "is parked on X" observation that
 * replaces the sleeps Go's own tests use to let a goroutine block.
 */
final class ChanTestSupport {
    private ChanTestSupport() {
    }

    static GoRuntime runtime(int procs, String name) {
        return GoRuntime.builder().maxProcs(procs).name(name + "-p" + procs).build();
    }

    /** {@link TestSupport#runInGoroutine}: kept short for the ported Go tests. */
    static void run(GoRuntime rt, TestSupport.Body body) {
        TestSupport.runInGoroutine(rt, body);
    }

    /**
     * Waits until goroutine {@code g} is parked with Go's wait reason {@code reason} (as the
     * goroutine dump shows it: "chan receive", "chan send", "select", ...).
     */
    static void awaitParked(GoRuntime rt, G g, String reason) {
        String header = "goroutine " + g.id() + " [" + reason + "]";
        TestSupport.awaitCondition(
                () -> g.thread() != null && g.thread().getState() == Thread.State.WAITING && rt.dump().contains(header),
                () -> "goroutine " + g.id() + " never parked on " + reason + ":\n" + rt.dump());
    }

    /** Waits until platform thread {@code t} is parked in a gmp4j {@link Waiter} (with or without a deadline). */
    static void awaitParked(Thread t) {
        TestSupport.awaitCondition(
                () -> (t.getState() == Thread.State.WAITING || t.getState() == Thread.State.TIMED_WAITING)
                        && LockSupport.getBlocker(t) instanceof Waiter,
                () -> t + " never parked on a channel: " + t.getState());
    }

    /**
     * Go's sync.WaitGroup plus error collection: start goroutines ({@link #go}) and platform
     * threads ({@link #thread}), then {@link #join} from a goroutine or any thread. The first
     * failure of any member is rethrown by {@code join}. Joining uses a channel and a select
     * with a timeout, so a hang fails with the goroutine dump instead of hanging the build.
     */
    static final class Group {
        private final GoRuntime rt;
        private final AtomicReference<Throwable> failure = new AtomicReference<>();
        private final Chan<Boolean> done = new Chan<>(1024);
        private final AtomicInteger started = new AtomicInteger();

        Group(GoRuntime rt) {
            this.rt = rt;
        }

        private Runnable wrap(TestSupport.Body body) {
            started.incrementAndGet();
            return () -> {
                try {
                    body.run();
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                } finally {
                    done.send(Boolean.TRUE);
                }
            };
        }

        /** Starts {@code body} as a goroutine; returns its G. */
        G go(TestSupport.Body body) {
            return Scheduler.of(rt).go(wrap(body));
        }

        /** Starts {@code body} on a new platform thread. */
        Thread thread(TestSupport.Body body) {
            return Thread.ofPlatform().daemon().name("chan-test-platform").start(wrap(body));
        }

        /** Waits for every member started so far and rethrows the first failure. */
        void join() {
            Select s = new Select();
            int n = started.getAndSet(0);
            for (int i = 0; i < n; i++) {
                s.reset();
                int got = s.recv(done);
                s.timeout(Duration.ofSeconds(TestSupport.TIMEOUT_S));
                if (s.select() != got) {
                    fail("group: " + (n - i) + " of " + n + " members still running after " + TestSupport.TIMEOUT_S
                            + " s\n" + rt.stats() + "\n" + rt.dump());
                }
                assertEquals(Boolean.TRUE, s.value());
            }
            Throwable t = failure.get();
            if (t != null) {
                throw new AssertionError("a member of the group failed: " + t, t);
            }
        }
    }
}
