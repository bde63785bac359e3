package io.gmp4j;

import io.gmp4j.runtime.Scheduler;
import io.gmp4j.runtime.G;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.lang.ref.Reference;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import static org.junit.jupiter.api.Assertions.*;

/**
 * What an ended goroutine leaves reachable. The tests run with ParallelGC, whose
 * {@code System.gc()} is a full collection that returns when it is done, so "unreachable"
 * means "cleared after a System.gc()".
 */
@ExtendWith(NoUncaughtExceptions.class)
class RetentionTest {
    @Test
    void anEndedGoroutinesFunctionIsGarbageEvenWhileItsGIsHeld() throws InterruptedException {
        try (GoRuntime rt = GoRuntime.builder().maxProcs(1).name("retain-fn").build()) {
            CountDownLatch ran = new CountDownLatch(1);
            List<WeakReference<byte[]>> captured = new ArrayList<>();
            G g = startCapturing(rt, ran, captured);
            TestSupport.await(ran, () -> rt.stats().toString());
            g.thread().join();
            assertTrue(collected(captured.getFirst()),
                    "what the goroutine's function captured is still reachable through its G");
            assertFalse(g.thread().isAlive());
            Reference.reachabilityFence(g);
        }
    }

    private static G startCapturing(GoRuntime rt, CountDownLatch ran, List<WeakReference<byte[]>> out) {
        byte[] big = new byte[1 << 20];
        out.add(new WeakReference<>(big));
        return Scheduler.of(rt).go(() -> {
            big[0] = 1;
            ran.countDown();
        });
    }

    @Test
    void theRegistryLetsGoOfEndedGoroutinesOnceTheRuntimeIsIdle() throws InterruptedException {
        int n = 1_000;
        try (GoRuntime rt = GoRuntime.builder().maxProcs(1).name("retain-registry").build()) {
            List<WeakReference<G>> gs = new ArrayList<>(n);
            CountDownLatch ended = new CountDownLatch(n);
            CountDownLatch spawned = new CountDownLatch(1);
            Scheduler.of(rt).go(() -> {
                // Started from a goroutine: recorded in its M's registry segment.
                for (int i = 0; i < n; i++) {
                    G child = Scheduler.of(rt).go(ended::countDown);
                    synchronized (gs) {
                        gs.add(new WeakReference<>(child));
                    }
                }
                spawned.countDown();
            });
            TestSupport.await(spawned, () -> rt.stats().toString());
            TestSupport.await(ended, () -> rt.stats().toString());
            // Idle: every P on the idle list and every M asleep (each sweeps its registry segment
            // on its way there, before it counts as idle; threads counts sysmon too).
            TestSupport.awaitCondition(() -> {
                SchedStats s = rt.stats();
                return s.idleProcs() == s.gomaxprocs() && s.idleThreads() == s.threads() - 1 && s.goroutines() == 0;
            }, () -> rt.stats().toString());
            int alive = 0;
            for (int round = 0; round < 3; round++) {
                System.gc();
                alive = 0;
                synchronized (gs) {
                    for (WeakReference<G> r : gs) {
                        alive += r.get() != null ? 1 : 0;
                    }
                }
                if (alive == 0) {
                    break;
                }
            }
            // With one P every task leaves the ring through its owner, which clears the slot
            // (only slots a thief took stay stale, at most the ring's 256 per P).
            assertEquals(0, alive, alive + " of " + n + " ended goroutines still reachable from the idle runtime");
            assertEquals(n, gs.size());
        }
    }

    /** Full collections (bounded) until {@code ref} is cleared. */
    private static boolean collected(WeakReference<?> ref) {
        for (int i = 0; i < 3 && ref.get() != null; i++) {
            System.gc();
        }
        return ref.get() == null;
    }
}
