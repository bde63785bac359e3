package io.gmp4j.chan;

import io.gmp4j.Go;
import io.gmp4j.GoRuntime;
import io.gmp4j.NoUncaughtExceptions;
import io.gmp4j.TestSupport;
import io.gmp4j.time.Time;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.time.Duration;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;

import static io.gmp4j.chan.ChanTestSupport.runtime;
import static org.junit.jupiter.api.Assertions.*;

/**
 * Go's {@code runtime.GOMAXPROCS(n)} under channel traffic: a Go test that changes GOMAXPROCS
 * while goroutines talk over channels ports as is. Every value sent is received exactly once,
 * and sleepers wake, whatever the P count did meanwhile.
 */
@ExtendWith(NoUncaughtExceptions.class)
class GomaxprocsChanTest {
    @Test
    void everyValueIsReceivedOnceWhileGomaxprocsChanges() {
        int producers = 8;
        int consumers = 8;
        int perProducer = TestSupport.stress(50_000, 5_000);
        int total = producers * perProducer;
        try (GoRuntime rt = runtime(4, "chan-resize")) {
            Chan<Integer> unbuffered = new Chan<>();
            Chan<Integer> buffered = new Chan<>(16);
            AtomicIntegerArray seen = new AtomicIntegerArray(total);
            AtomicInteger received = new AtomicInteger();
            AtomicInteger slept = new AtomicInteger();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            CountDownLatch producersDone = new CountDownLatch(producers);
            CountDownLatch consumersDone = new CountDownLatch(consumers);
            for (int p = 0; p < producers; p++) {
                int me = p;
                rt.go(() -> {
                    Chan<Integer> out = me % 2 == 0 ? unbuffered : buffered;
                    for (int i = 0; i < perProducer; i++) {
                        out.send(me * perProducer + i);
                        if (i % 1_000 == 0) {
                            Time.sleep(Duration.ofMillis(1)); // a timer on whatever P this is
                            slept.incrementAndGet();
                        }
                    }
                    producersDone.countDown();
                });
            }
            for (int c = 0; c < consumers; c++) {
                int me = c;
                rt.go(() -> {
                    Chan<Integer> in = me % 2 == 0 ? unbuffered : buffered;
                    try {
                        for (Integer v : in) {
                            if (seen.incrementAndGet(v) != 1) {
                                failure.compareAndSet(null, new AssertionError("value " + v + " received twice"));
                            }
                            received.incrementAndGet();
                        }
                    } finally {
                        consumersDone.countDown();
                    }
                });
            }
            int[] cycle = {1, 3, 2, 4};
            SplittableRandom rnd = new SplittableRandom(11);
            int changes = 0;
            while (producersDone.getCount() > 0) {
                LockSupport.parkNanos(rnd.nextLong(2_000_000));
                int n = cycle[changes++ % cycle.length];
                if (changes % 3 == 0) {
                    TestSupport.runInGoroutine(rt, () -> Go.gomaxprocs(n));
                } else {
                    rt.gomaxprocs(n);
                }
                assertEquals(n, rt.stats().gomaxprocs());
            }
            unbuffered.close();
            buffered.close();
            TestSupport.await(consumersDone, () -> received + " of " + total + " received; " + rt.stats());
            if (failure.get() != null) {
                throw new AssertionError(failure.get());
            }
            assertEquals(total, received.get());
            for (int v = 0; v < total; v++) {
                assertEquals(1, seen.get(v), "value " + v);
            }
            assertEquals(producers * ((perProducer + 999) / 1_000), slept.get(), "every sleeper woke");
            assertTrue(changes >= 2, "GOMAXPROCS changed while the values flowed: " + changes);
            System.out.println("chan resize: " + changes + " changes, " + rt.stats());
        }
    }
}
