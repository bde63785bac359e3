package io.gmp4j;

import io.gmp4j.runtime.Scheduler;
import io.gmp4j.runtime.Waiter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.*;

/** {@link GoRuntime#metrics}: Go's {@code /sched/} metrics, counted exactly in quiet states. */
@ExtendWith(NoUncaughtExceptions.class)
class MetricsTest {
    @Test
    void goroutinesParkedInAWaitAreCountedWaitingExactlyAndCreatedCountsEachStart() throws Exception {
        int n = 37;
        try (GoRuntime rt = GoRuntime.builder().maxProcs(2).name("metrics-waiting").build()) {
            long createdBefore = rt.metrics(Metrics.GOROUTINES_CREATED).value(Metrics.GOROUTINES_CREATED);
            ParkedGoroutines parked = ParkedGoroutines.park(rt, n);

            Metrics m = rt.metrics();
            assertEquals(n, m.value(Metrics.GOROUTINES_WAITING), m::toString);
            assertEquals(0, m.value(Metrics.GOROUTINES_RUNNING), m::toString);
            assertEquals(0, m.value(Metrics.GOROUTINES_RUNNABLE), m::toString);
            assertEquals(0, m.value(Metrics.GOROUTINES_NOT_IN_GO), m::toString);
            assertEquals(n, m.value(Metrics.GOROUTINES), m::toString);
            assertEquals(createdBefore + n, m.value(Metrics.GOROUTINES_CREATED), m::toString);
            assertEquals(2, m.value(Metrics.GOMAXPROCS));
            assertEquals(rt.stats().threads(), m.value(Metrics.THREADS));
            assertEquals(Metrics.all().size(), m.names().size());

            parked.wakeAll();
            Metrics after = rt.metrics(Metrics.GOROUTINES_WAITING, Metrics.GOROUTINES);
            assertEquals(0, after.value(Metrics.GOROUTINES_WAITING), after::toString);
            assertEquals(0, after.value(Metrics.GOROUTINES));
            assertFalse(after.has(Metrics.GOROUTINES_RUNNING), "only what was asked for is read");
            assertThrows(IllegalStateException.class, () -> after.value(Metrics.GOROUTINES_RUNNING));
        }
    }

    /**
     * One P: a goroutine that starts k goroutines (queued on its own P) and reads the metrics
     * before yielding sees itself running and the k queued ones runnable. Sysmon may preempt it
     * at a go() (a safe point) on a slow host, letting children run: then the round is retried.
     */
    @Test
    void queuedGoroutinesAreRunnableAndTheReaderIsRunning() {
        int k = 5;
        try (GoRuntime rt = GoRuntime.builder().maxProcs(1).name("metrics-runnable").build()) {
            for (int round = 0; ; round++) {
                assertTrue(round < 50, "a child ran before the metrics were read in 50 rounds");
                AtomicInteger ran = new AtomicInteger();
                CountDownLatch done = new CountDownLatch(k);
                AtomicReference<Metrics> seen = new AtomicReference<>();
                AtomicInteger ranBeforeRead = new AtomicInteger(-1);
                TestSupport.runInGoroutine(rt, () -> {
                    for (int i = 0; i < k; i++) {
                        Go.go(() -> {
                            ran.incrementAndGet();
                            done.countDown();
                        });
                    }
                    Metrics m = rt.metrics();
                    ranBeforeRead.set(ran.get());
                    seen.set(m);
                });
                TestSupport.await(done, rt::dump);
                if (ranBeforeRead.get() != 0) {
                    continue; // preempted while spawning: some children ran before the read
                }
                Metrics m = seen.get();
                assertEquals(1, m.value(Metrics.GOROUTINES_RUNNING), m::toString);
                assertEquals(k, m.value(Metrics.GOROUTINES_RUNNABLE), m::toString);
                assertEquals(0, m.value(Metrics.GOROUTINES_WAITING), m::toString);
                assertEquals(k + 1, m.value(Metrics.GOROUTINES), m::toString);
                return;
            }
        }
    }

    @Test
    void aGoroutineInsideABlockingSyscallIsNotInGo() throws Exception {
        try (GoRuntime rt = GoRuntime.builder().maxProcs(1).name("metrics-syscall").build()) {
            CountDownLatch inside = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            Thread t = Scheduler.of(rt).go(() -> {
                try {
                    Syscall.blocking(() -> {
                        inside.countDown();
                        release.await();
                    });
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
            }).thread();
            TestSupport.await(inside, rt::dump);
            Metrics m = rt.metrics();
            assertEquals(1, m.value(Metrics.GOROUTINES_NOT_IN_GO), m::toString);
            assertEquals(0, m.value(Metrics.GOROUTINES_RUNNING), m::toString);
            assertEquals(0, m.value(Metrics.GOROUTINES_WAITING), m::toString);
            release.countDown();
            t.join();
        }
    }

    /**
     * One goroutine waits 64 * rounds times, each wait readied by a platform thread only after it
     * parked: exactly every 64th wait is sampled, plus its start when its id is a multiple of 64. Nothing else runs on the runtime, so the histogram's count grows
     * by exactly that.
     */
    @Test
    void oneWaitInSixtyFourIsSampledIntoTheLatencyHistogram() throws Exception {
        int rounds = 10;
        try (GoRuntime rt = GoRuntime.builder().maxProcs(1).name("metrics-latency").build()) {
            Metrics.Histogram before = rt.metrics(Metrics.LATENCIES).histogram(Metrics.LATENCIES);
            AtomicReference<Waiter> current = new AtomicReference<>();
            io.gmp4j.runtime.G g = Scheduler.of(rt).go(() -> {
                for (int i = 0; i < 64 * rounds; i++) {
                    Waiter w = Waiter.current();
                    current.set(w);
                    w.park("test wait");
                }
            });
            Thread t = g.thread();
            for (int i = 0; i < 64 * rounds; i++) {
                Waiter w;
                while ((w = current.getAndSet(null)) == null) {
                    Thread.onSpinWait();
                }
                TestSupport.awaitCondition(() -> t.getState() == Thread.State.WAITING, rt::dump);
                w.wake();
            }
            t.join();
            Metrics.Histogram after = rt.metrics(Metrics.LATENCIES).histogram(Metrics.LATENCIES);
            long expected = rounds + (g.id() % 64 == 0 ? 1 : 0);
            assertEquals(expected, after.count() - before.count(), after::toString);
            assertTrue(after.sumSeconds() > before.sumSeconds(), after::toString);
            assertEquals(0, after.counts()[0], "no negative latency");
            double q = after.quantile(1.0);
            assertTrue(q > 0 && q < 60, "the slowest sample is between 0 and the test's timeout: " + q);
        }
    }

    @Test
    void theLatencyBucketsAreGosLayout() {
        try (GoRuntime rt = GoRuntime.builder().maxProcs(1).name("metrics-buckets").build()) {
            Metrics.Histogram h = rt.metrics(Metrics.LATENCIES).histogram(Metrics.LATENCIES);
            double[] b = h.buckets();
            // runtime/histogram.go: 40 buckets of 4 sub-buckets, plus underflow and overflow.
            assertEquals(163, b.length);
            assertEquals(162, h.counts().length);
            assertEquals(Double.NEGATIVE_INFINITY, b[0]);
            assertEquals(0.0, b[1]);
            assertEquals(64e-9, b[2], 1e-15);
            assertEquals(256e-9, b[5], 1e-15); // bit 9: 2^8 ns
            assertEquals(320e-9, b[6], 1e-15);
            assertEquals((1L << 47) / 1e9, b[161]);
            assertEquals(Double.POSITIVE_INFINITY, b[162]);
            for (int i = 1; i < b.length; i++) {
                assertTrue(b[i] > b[i - 1], "boundaries grow at " + i);
            }
        }
    }

    @Test
    void unknownNamesAndWrongKindsAreClearErrors() {
        try (GoRuntime rt = GoRuntime.builder().maxProcs(1).name("metrics-errors").build()) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> rt.metrics("/sched/nope:goroutines"));
            assertTrue(e.getMessage().contains("/sched/goroutines:goroutines"), e.getMessage());
            Metrics m = rt.metrics();
            assertThrows(IllegalArgumentException.class, () -> m.value(Metrics.LATENCIES));
            assertThrows(IllegalArgumentException.class, () -> m.histogram(Metrics.GOROUTINES));
            assertTrue(Metrics.cumulative(Metrics.GOROUTINES_CREATED));
            assertFalse(Metrics.cumulative(Metrics.GOROUTINES_WAITING));
            assertTrue(Metrics.description(Metrics.GOROUTINES).startsWith("Count of live goroutines"));
        }
    }

    @Test
    void withoutTheRegistryTheStateCountsAreAbsentAndTheRestIsRead() {
        try (GoRuntime rt = GoRuntime.builder().maxProcs(1).goroutineRegistry(false).name("metrics-noreg").build()) {
            Metrics m = rt.metrics();
            assertFalse(m.has(Metrics.GOROUTINES_WAITING));
            assertTrue(m.has(Metrics.GOROUTINES));
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> m.value(Metrics.GOROUTINES_WAITING));
            assertTrue(e.getMessage().contains("registry"), e.getMessage());
        }
    }
}
