package io.gmp4j.vertx;

import io.gmp4j.GoRuntime;
import io.gmp4j.NoUncaughtExceptions;
import io.gmp4j.TestSupport;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The drain wait's protocol, with the stream's queue state scripted: a drain that comes between
 * the writer's check and its publication is not lost, one that comes while it is parked wakes
 * it, and a close ends the wait.
 */
@ExtendWith(NoUncaughtExceptions.class)
class WriteGateTest {
    @Test
    void aDrainBeforeTheWriterPublishedItselfIsNotLost() {
        try (GoRuntime rt = GoRuntime.builder().maxProcs(2).name("gate").build()) {
            WriteGate gate = new WriteGate();
            AtomicInteger checks = new AtomicInteger();
            // full at the first check; the drain comes right after it, before the writer is in
            // the slot; from then on the queue takes writes
            TestSupport.runInGoroutine(rt, () -> assertTrue(gate.awaitWritable(() -> {
                if (checks.incrementAndGet() == 1) {
                    gate.drained();
                    return true;
                }
                return false;
            }, "test")));
            assertEquals(1, gate.waits());
        }
    }

    @Test
    void aDrainWakesAParkedWriterAndACloseEndsTheWait() throws InterruptedException {
        try (GoRuntime rt = GoRuntime.builder().maxProcs(2).name("gate").build()) {
            WriteGate gate = new WriteGate();
            AtomicBoolean full = new AtomicBoolean(true);
            AtomicReference<Thread> writer = new AtomicReference<>();
            AtomicReference<Boolean> result = new AtomicReference<>();
            CountDownLatch done = new CountDownLatch(1);
            rt.go(() -> {
                writer.set(Thread.currentThread());
                result.set(gate.awaitWritable(full::get, "test"));
                done.countDown();
            });
            TestSupport.awaitCondition(() -> VertxTestSupport.parkedIn(writer.get(), WriteGate.class, "awaitWritable"),
                    () -> rt.dump());
            full.set(false);
            gate.drained();
            TestSupport.await(done, () -> rt.dump());
            assertTrue(result.get());

            // a platform-thread writer, ended by the close
            full.set(true);
            AtomicReference<Boolean> closedResult = new AtomicReference<>();
            Thread t = Thread.ofPlatform().start(() -> closedResult.set(gate.awaitWritable(full::get, "test")));
            TestSupport.awaitCondition(() -> VertxTestSupport.parkedIn(t, WriteGate.class, "awaitWritable"), () -> "not parked");
            gate.close();
            t.join(TestSupport.TIMEOUT_S * 1000);
            assertFalse(closedResult.get());
            assertFalse(gate.awaitWritable(() -> true, "test"), "after the close no wait begins");
        }
    }
}
