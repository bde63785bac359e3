package io.gmp4j;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.*;

/**
 * With one P, a goroutine that keeps its M (CPU-bound, never reaching a safe point) can only
 * let others run if sysmon hands its P to another M (Go's retake/handoffp).
 */
@ExtendWith(NoUncaughtExceptions.class)
class HandoffTest {
    private static final int WORKERS = 100;

    private static volatile boolean flag;

    /** Starts WORKERS goroutines from this (platform) thread; the last one runs {@code last}. */
    private static void startWorkers(GoRuntime rt, Runnable last) {
        AtomicInteger left = new AtomicInteger(WORKERS);
        for (int i = 0; i < WORKERS; i++) {
            rt.go(() -> {
                TestSupport.burn(20_000);
                if (left.decrementAndGet() == 0) {
                    last.run();
                }
            });
        }
    }

    @Test
    void cpuBoundGoroutineLosesItsPToWaitingWork() {
        flag = false;
        try (GoRuntime rt = GoRuntime.builder().maxProcs(1).name("handoff-spin").build()) {
            CountDownLatch spinning = new CountDownLatch(1);
            CountDownLatch spinnerDone = new CountDownLatch(1);
            rt.go(() -> {
                spinning.countDown();
                while (!flag) {
                    Thread.onSpinWait(); // no safe point: only a handoff gets the workers a P
                }
                spinnerDone.countDown();
            });
            TestSupport.await(spinning, () -> rt.stats().toString());
            startWorkers(rt, () -> flag = true);
            TestSupport.await(spinnerDone, () -> "workers never ran: " + rt.stats());
            SchedStats s = rt.stats();
            System.out.println("handoff (spin): " + s);
            assertTrue(s.handoffs() > 0, () -> "no handoff: " + s);
            assertTrue(s.preemptRequests() > 0, () -> "sysmon asks before it hands off: " + s);
        }
    }

    @Test
    void syscallAndCpuBoundGoroutinesBothWaitForOthers() {
        flag = false;
        try (GoRuntime rt = GoRuntime.builder().maxProcs(1).name("handoff-syscall-spin").build()) {
            CountDownLatch workersDone = new CountDownLatch(1);
            CountDownLatch started = new CountDownLatch(2);
            CountDownLatch bothDone = new CountDownLatch(2);
            AtomicReference<Throwable> failure = new AtomicReference<>();
            rt.go(() -> { // A: blocks in a syscall
                started.countDown();
                try {
                    Syscall.blocking(() -> workersDone.await());
                } catch (Throwable t) {
                    failure.set(t);
                }
                bothDone.countDown();
            });
            rt.go(() -> { // B: spins on the CPU
                started.countDown();
                while (!flag) {
                    Thread.onSpinWait();
                }
                bothDone.countDown();
            });
            TestSupport.await(started, () -> rt.stats().toString());
            startWorkers(rt, () -> {
                workersDone.countDown();
                flag = true;
            });
            TestSupport.await(bothDone, () -> "stuck: " + rt.stats() + "\n" + rt.dump());
            assertNull(failure.get());
            SchedStats s = rt.stats();
            System.out.println("handoff (syscall+spin): " + s);
            assertTrue(s.handoffs() > 0, () -> "no handoff: " + s);
        }
    }

    /**
     * A goroutine that parks inside Syscall.blocking (here in a CountDownLatch) unmounts, so its
     * M keeps the P and runs others. The workers are queued on that P before the syscall, so the
     * M never goes idle: the goroutine is woken into the same P and resumes on the same M, under
     * the same ownership it entered the syscall with, and exitsyscall must let it continue there.
     */
    @Test
    void goroutineParkedInsideASyscallResumesOnTheSamePAndOthersStillRun() {
        try (GoRuntime rt = GoRuntime.builder().maxProcs(1).name("syscall-park").build()) {
            CountDownLatch returned = new CountDownLatch(1);
            AtomicReference<Throwable> failure = new AtomicReference<>();
            AtomicInteger left = new AtomicInteger(WORKERS);
            rt.go(() -> {
                CountDownLatch release = new CountDownLatch(1);
                try {
                    for (int i = 0; i < WORKERS; i++) {
                        Go.go(() -> {
                            TestSupport.burn(20_000);
                            if (left.decrementAndGet() == 0) {
                                release.countDown();
                            }
                        });
                    }
                    Syscall.blocking(() -> release.await());
                } catch (Throwable t) {
                    failure.set(t);
                }
                returned.countDown();
            });
            TestSupport.await(returned, () -> "the syscall never returned (" + left + " workers left): "
                    + rt.stats() + "\n" + rt.dump());
            assertNull(failure.get());
            // The runtime must still run goroutines afterwards.
            CountDownLatch after = new CountDownLatch(10);
            for (int i = 0; i < 10; i++) {
                rt.go(after::countDown);
            }
            TestSupport.await(after, () -> "the P was lost after the syscall: " + rt.stats());
            System.out.println("syscall-park: " + rt.stats());
        }
    }

    /**
     * Same with a timed wait in the syscall (Thread.sleep, woken through the global queue by the
     * JDK's unparker thread) while another goroutine keeps the P busy, yielding cooperatively.
     */
    @Test
    void goroutineSleepingInsideASyscallWhileThePIsBusyReturns() {
        int iterations = 20;
        try (GoRuntime rt = GoRuntime.builder().maxProcs(1).name("syscall-sleep").build()) {
            CountDownLatch done = new CountDownLatch(1);
            CountDownLatch yielderDone = new CountDownLatch(1);
            AtomicInteger completed = new AtomicInteger();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
            rt.go(() -> {
                Go.go(() -> { // keeps the one P busy, so its M never goes idle
                    while (!stop.get()) {
                        Go.gosched();
                    }
                    yielderDone.countDown();
                });
                try {
                    for (int i = 0; i < iterations; i++) {
                        Syscall.blocking(() -> Thread.sleep(1)); // a delay, not synchronization
                        completed.incrementAndGet();
                    }
                } catch (Throwable t) {
                    failure.set(t);
                } finally {
                    stop.set(true);
                    done.countDown();
                }
            });
            try {
                TestSupport.await(done, () -> completed + " of " + iterations + " syscalls returned: "
                        + rt.stats() + "\n" + rt.dump());
            } finally {
                stop.set(true);
            }
            assertNull(failure.get());
            assertEquals(iterations, completed.get());
            TestSupport.await(yielderDone, () -> rt.stats().toString());
        }
    }
}
