package io.gmp4j.sync;

import io.gmp4j.GoRuntime;
import io.gmp4j.NoUncaughtExceptions;
import io.gmp4j.TestSupport;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.*;

/** RWMutex: readers share, a writer is alone, a pending writer stops new readers. */
@ExtendWith(NoUncaughtExceptions.class)
class RWMutexTest {
    private long written; // plain: only the write lock guards it

    @ParameterizedTest(name = "maxProcs={0}")
    @ValueSource(ints = {1, 2})
    void writersAreExclusiveAndReadersNeverSeeAWriter(int procs) {
        RWMutex rw = new RWMutex();
        AtomicInteger readersIn = new AtomicInteger();
        AtomicInteger writersIn = new AtomicInteger();
        int ops = TestSupport.stress(10_000, 1_000);
        int goroutines = 6, platforms = 2;
        written = 0;
        try (GoRuntime rt = Mixed.runtime(procs, "rw-invariant")) {
            Mixed.run(rt, goroutines, platforms, id -> {
                boolean isWriter = id % 3 == 0; // goroutines 0, 3 and platform thread 6
                for (int i = 0; i < ops; i++) {
                    if (isWriter) {
                        rw.lock();
                        assertEquals(1, writersIn.incrementAndGet(), "two writers");
                        assertEquals(0, readersIn.get(), "a reader inside with a writer");
                        written++;
                        writersIn.decrementAndGet();
                        rw.unlock();
                    } else {
                        rw.rlock();
                        readersIn.incrementAndGet();
                        assertEquals(0, writersIn.get(), "a writer inside with a reader");
                        readersIn.decrementAndGet();
                        rw.runlock();
                    }
                }
            });
        }
        assertEquals(3L * ops, written);
        assertTrue(rw.tryLock(), rw::toString);
        rw.unlock();
    }

    @Test
    void readersShareAndAPendingWriterBlocksNewReaders() {
        try (GoRuntime rt = Mixed.runtime(2, "rw-order")) {
            RWMutex rw = new RWMutex();
            rw.rlock(); // the test thread reads
            // A second reader gets in while the first holds: readers are concurrent.
            TestSupport.runInGoroutine(rt, () -> {
                assertTrue(rw.tryRLock());
                rw.runlock();
                rw.rlock();
                rw.runlock();
            });
            List<String> order = new ArrayList<>();
            CountDownLatch finished = new CountDownLatch(2);
            rt.go(() -> {
                rw.lock();
                order.add("writer");
                rw.unlock();
                finished.countDown();
            });
            TestSupport.awaitCondition(() -> Mixed.parkedWith(rt, "sync.RWMutex.Lock") == 1, rt::dump);
            assertFalse(rw.tryRLock(), "a pending writer must block new readers");
            assertFalse(rw.tryLock());
            rt.go(() -> {
                rw.rlock();
                order.add("late reader"); // after the writer's unlock, which admitted us
                rw.runlock();
                finished.countDown();
            });
            TestSupport.awaitCondition(() -> Mixed.parkedWith(rt, "sync.RWMutex.RLock") == 1, rt::dump);
            rw.runlock(); // the writer goes first, then the reader that queued behind it
            TestSupport.await(finished, rt::dump);
            assertEquals(List.of("writer", "late reader"), order);
        }
    }

    @Test
    void aStreamOfReadersDoesNotStarveAWriter() {
        int writes = TestSupport.stress(2_000, 300);
        try (GoRuntime rt = Mixed.runtime(2, "rw-starve")) {
            RWMutex rw = new RWMutex();
            AtomicBoolean stop = new AtomicBoolean();
            AtomicInteger reads = new AtomicInteger();
            int readers = 6;
            CountDownLatch readersDone = new CountDownLatch(readers + 1);
            for (int i = 0; i < readers + 1; i++) {
                Runnable reader = () -> {
                    // Overlapping read locks: there is always a reader inside while they run.
                    while (!stop.get()) {
                        rw.rlock();
                        reads.incrementAndGet();
                        rw.runlock();
                    }
                    readersDone.countDown();
                };
                if (i < readers) {
                    rt.go(reader);
                } else {
                    Thread.ofPlatform().daemon().start(reader);
                }
            }
            TestSupport.awaitCondition(() -> reads.get() > 1_000, rt::dump);
            TestSupport.runInGoroutine(rt, () -> {
                for (int i = 0; i < writes; i++) {
                    rw.lock();
                    written = i;
                    rw.unlock();
                }
            });
            stop.set(true);
            TestSupport.await(readersDone, rt::dump);
            assertEquals(writes - 1, written);
        }
    }

    @Test
    void goErrors() {
        RWMutex rw = new RWMutex();
        assertEquals("sync: RUnlock of unlocked RWMutex",
                assertThrows(IllegalStateException.class, rw::runlock).getMessage());
        assertEquals("sync: Unlock of unlocked RWMutex",
                assertThrows(IllegalStateException.class, rw::unlock).getMessage());
        Locker r = rw.rlocker();
        r.lock();
        assertTrue(rw.tryRLock());
        assertFalse(rw.tryLock());
        rw.runlock();
        r.unlock();
        assertTrue(rw.tryLock());
        rw.unlock();
    }
}
