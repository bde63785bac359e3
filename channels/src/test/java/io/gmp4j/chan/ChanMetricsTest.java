package io.gmp4j.chan;

import io.gmp4j.GoRuntime;
import io.gmp4j.Metrics;
import io.gmp4j.NoUncaughtExceptions;
import io.gmp4j.TestSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@link GoRuntime#metrics}'s goroutine states with goroutines parked on channels. */
@ExtendWith(NoUncaughtExceptions.class)
class ChanMetricsTest {
    @Test
    void goroutinesParkedOnAChannelAreWaitingExactlyUntilItCloses() {
        int n = 50;
        try (GoRuntime rt = GoRuntime.builder().maxProcs(2).name("chan-metrics").build()) {
            long created = rt.metrics(Metrics.GOROUTINES_CREATED).value(Metrics.GOROUTINES_CREATED);
            Chan<Integer> ch = new Chan<>();
            AtomicInteger closedSeen = new AtomicInteger();
            CountDownLatch done = new CountDownLatch(n);
            for (int i = 0; i < n; i++) {
                rt.go(() -> {
                    if (!ch.recvOk().ok()) {
                        closedSeen.incrementAndGet();
                    }
                    done.countDown();
                });
            }
            TestSupport.awaitCondition(() -> rt.metrics(Metrics.GOROUTINES_WAITING).value(Metrics.GOROUTINES_WAITING) == n,
                    () -> rt.metrics().toString());
            Metrics m = rt.metrics();
            assertEquals(n, m.value(Metrics.GOROUTINES_WAITING), m::toString);
            assertEquals(0, m.value(Metrics.GOROUTINES_RUNNING) + m.value(Metrics.GOROUTINES_RUNNABLE), m::toString);
            assertEquals(n, m.value(Metrics.GOROUTINES), m::toString);
            assertEquals(created + n, m.value(Metrics.GOROUTINES_CREATED), m::toString);

            ch.close();
            TestSupport.await(done, rt::dump);
            assertEquals(n, closedSeen.get());
            TestSupport.awaitCondition(() -> rt.numGoroutine() == 0, rt::dump);
            assertEquals(0, rt.metrics(Metrics.GOROUTINES_WAITING).value(Metrics.GOROUTINES_WAITING));
        }
    }
}
