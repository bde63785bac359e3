package io.gmp4j;

import io.gmp4j.runtime.Scheduler;
import io.gmp4j.runtime.spi.NetpollHost;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A per-P poll goroutine's blocking turn ({@code NetpollHost.entersyscallIdle}) gives its P back
 * to the idle list and starts no M, where Go's entersyscallblock ({@code handoffp}) starts a
 * spinning M for an empty P while every other P is busy. Both cases run side by side with the
 * other P held by a spinning goroutine, so the only difference is the kind of syscall.
 */
@ExtendWith(NoUncaughtExceptions.class)
class IdleReleaseTest {
    private static volatile boolean release;

    @Test
    void blockingPollTurnReleasesItsPWithoutWakingAnM() {
        // With both Ps busy: the idle release starts no M; handoffp starts a spinning one.
        long idleWakeups = wakeupsAcrossSyscall(true);
        long handoffWakeups = wakeupsAcrossSyscall(false);
        assertEquals(0, idleWakeups, "entersyscallIdle started an M");
        assertEquals(1, handoffWakeups, "handoffp with every other P busy starts one spinning M");
    }

    /**
     * M wake-ups caused by one syscall entered by a goroutine while the runtime's other P runs
     * a goroutine that spins until released. Retries when sysmon disturbed the window (a
     * handoff or a preempt request of the spinner would also wake Ms).
     */
    private static long wakeupsAcrossSyscall(boolean idle) {
        for (int attempt = 0; ; attempt++) {
            release = false;
            try (GoRuntime rt = GoRuntime.builder().maxProcs(2).name("idle-release-" + idle).build()) {
                NetpollHost host = FakeNetpoll.attach(rt).host;
                CountDownLatch spinning = new CountDownLatch(1);
                CountDownLatch spinnerDone = new CountDownLatch(1);
                AtomicReference<long[]> seen = new AtomicReference<>();
                CountDownLatch measured = new CountDownLatch(1);
                rt.go(() -> {
                    spinning.countDown();
                    while (!release) {
                        Thread.onSpinWait(); // holds its P: no safe point in this loop
                    }
                    spinnerDone.countDown();
                });
                TestSupport.await(spinning, () -> "spinner never ran: " + rt.stats());
                rt.go(() -> {
                    Scheduler s = Scheduler.of(rt);
                    // Wait until no M spins and no P is idle: the spinner on one P, us on the other.
                    long until = System.nanoTime() + 5_000_000_000L;
                    while ((rt.stats().idleProcs() != 0 || rt.stats().spinningThreads() != 0)
                            && System.nanoTime() < until) {
                        Thread.onSpinWait();
                    }
                    SchedStats before = rt.stats();
                    long token = idle ? host.entersyscallIdle() : s.entersyscall(true);
                    SchedStats inside = rt.stats();
                    s.exitsyscall(token);
                    seen.set(new long[]{token, before.idleProcs(), inside.idleProcs(),
                            inside.mWakeups() - before.mWakeups(),
                            inside.handoffs() - before.handoffs() - (idle ? 0 : 1),
                            inside.preemptRequests() - before.preemptRequests()});
                    measured.countDown();
                });
                TestSupport.await(measured, () -> "measuring goroutine never finished: " + rt.stats());
                release = true;
                TestSupport.await(spinnerDone, () -> "spinner never ended: " + rt.stats());
                long[] v = seen.get();
                boolean disturbed = v[1] != 0 || v[4] != 0 || v[5] != 0;
                if (disturbed && attempt < 20) {
                    continue; // sysmon or a late M moved something in the window: measure again
                }
                assertTrue(v[0] != 0, "the goroutine held a P when it entered the syscall");
                assertNull(disturbed ? "disturbed in every attempt" : null);
                if (idle) {
                    assertEquals(1, v[2], "the P went to the idle list during the syscall");
                }
                return v[3];
            }
        }
    }
}
