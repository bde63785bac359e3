package io.gmp4j.micrometer;

import io.gmp4j.GoRuntime;
import io.gmp4j.Metrics;
import io.gmp4j.NoUncaughtExceptions;
import io.gmp4j.ParkedGoroutines;
import io.micrometer.core.instrument.FunctionTimer;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/** The binder's meters read what {@link GoRuntime#metrics} reads, through a SimpleMeterRegistry. */
@ExtendWith(NoUncaughtExceptions.class)
class GoRuntimeMetricsTest {
    private static double gauge(SimpleMeterRegistry reg, String goName) {
        return reg.get(GoRuntimeMetrics.meterName(goName)).tag("runtime", "mm").gauge().value();
    }

    @Test
    void theMetersCountParkedGoroutinesAndStartsExactly() throws Exception {
        int n = 70; // ids 1..70: goroutine 64 is sampled from its start
        SimpleMeterRegistry reg = new SimpleMeterRegistry();
        try (GoRuntime rt = GoRuntime.builder().maxProcs(2).name("mm").build()) {
            new GoRuntimeMetrics(rt, Tags.of("runtime", "mm")).bindTo(reg);
            double createdBefore = reg.get("gmp4j.sched.goroutines-created").functionCounter().count();
            ParkedGoroutines parked = ParkedGoroutines.park(rt, n);

            assertEquals(n, gauge(reg, Metrics.GOROUTINES_WAITING));
            assertEquals(0, gauge(reg, Metrics.GOROUTINES_RUNNING));
            assertEquals(0, gauge(reg, Metrics.GOROUTINES_RUNNABLE));
            assertEquals(0, gauge(reg, Metrics.GOROUTINES_NOT_IN_GO));
            assertEquals(n, gauge(reg, Metrics.GOROUTINES));
            assertEquals(2, gauge(reg, Metrics.GOMAXPROCS));
            assertEquals(rt.metrics(Metrics.THREADS).value(Metrics.THREADS), gauge(reg, Metrics.THREADS));
            assertEquals(createdBefore + n, reg.get("gmp4j.sched.goroutines-created").functionCounter().count());
            Meter.Id id = reg.get("gmp4j.sched.goroutines.waiting").gauge().getId();
            assertEquals("goroutines", id.getBaseUnit());
            assertEquals(Metrics.description(Metrics.GOROUTINES_WAITING), id.getDescription());

            parked.wakeAll();
            assertEquals(0, gauge(reg, Metrics.GOROUTINES_WAITING));
            assertEquals(0, gauge(reg, Metrics.GOROUTINES));

            // The latency meters read the runtime's histogram: count, total and the le buckets.
            Metrics.Histogram h = rt.metrics(Metrics.LATENCIES).histogram(Metrics.LATENCIES);
            FunctionTimer timer = reg.get("gmp4j.sched.latencies").functionTimer();
            assertEquals(h.count(), timer.count());
            assertTrue(h.count() > 0, "the starts and waits above were sampled: " + h);
            assertEquals(h.sumSeconds(), timer.totalTime(TimeUnit.SECONDS), 1e-12);
            double[] b = h.buckets();
            long[] c = h.counts();
            double previous = 0;
            for (int p = GoRuntimeMetrics.FIRST_POWER; p <= GoRuntimeMetrics.LAST_POWER; p++) {
                double le = (1L << p) / 1e9;
                long expected = 0;
                for (int i = 0; i < c.length; i++) {
                    if (b[i + 1] <= le) {
                        expected += c[i];
                    }
                }
                double got = reg.get("gmp4j.sched.latencies.bucket").tag("le", Double.toString(le)).functionCounter().count();
                assertEquals(expected, got, "le=" + le);
                assertTrue(got >= previous, "cumulative buckets grow");
                previous = got;
            }
            assertEquals(GoRuntimeMetrics.LAST_POWER - GoRuntimeMetrics.FIRST_POWER + 1,
                    reg.find("gmp4j.sched.latencies.bucket").functionCounters().size());
        }
    }

    @Test
    void withoutTheRegistryTheStateGaugesAreNotRegistered() {
        SimpleMeterRegistry reg = new SimpleMeterRegistry();
        try (GoRuntime rt = GoRuntime.builder().maxProcs(1).goroutineRegistry(false).name("mm-noreg").build()) {
            new GoRuntimeMetrics(rt).bindTo(reg);
            assertNull(reg.find("gmp4j.sched.goroutines.waiting").gauge());
            assertNotNull(reg.find("gmp4j.sched.goroutines").gauge());
            assertEquals(0, reg.get("gmp4j.sched.goroutines").gauge().value());
        }
    }
}
