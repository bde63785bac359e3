package io.gmp4j.sync;

import io.gmp4j.DeadlockError;
import io.gmp4j.GoRuntime;
import io.gmp4j.NoUncaughtExceptions;
import io.gmp4j.TestSupport;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.junit.jupiter.api.Assertions.*;

/** Waits on sync primitives are Go waits: the deadlock detector sees them, the dump names them. */
@ExtendWith(NoUncaughtExceptions.class)
class SyncDeadlockTest {

    @Test
    void mainWaitingOnAWaitGroupNobodyReleasesIsADeadlock() throws Exception {
        try (GoRuntime rt = Mixed.runtime(2, "wg-deadlock")) {
            Throwable t = TestSupport.runMain(rt, () -> {
                WaitGroup wg = new WaitGroup();
                wg.add(1);
                wg.await();
            });
            DeadlockError e = assertInstanceOf(DeadlockError.class, t);
            assertTrue(e.getMessage().startsWith(DeadlockError.MESSAGE), e.getMessage());
            assertTrue(e.dump().contains("[sync.WaitGroup.Wait"), e.dump());
        }
    }

    @Test
    void lockingAMutexTwiceIsADeadlock() throws Exception {
        try (GoRuntime rt = Mixed.runtime(1, "mutex-deadlock")) {
            Throwable t = TestSupport.runMain(rt, () -> {
                Mutex mu = new Mutex();
                mu.lock();
                mu.lock(); // not reentrant
            });
            DeadlockError e = assertInstanceOf(DeadlockError.class, t);
            assertTrue(e.dump().contains("[sync.Mutex.Lock"), e.dump());
        }
    }

    @Test
    void aWaitGroupReleasedByAnotherGoroutineIsNoDeadlock() throws Exception {
        try (GoRuntime rt = Mixed.runtime(1, "wg-ok")) {
            Throwable t = TestSupport.runMain(rt, () -> {
                WaitGroup wg = new WaitGroup();
                Mutex mu = new Mutex();
                mu.lock();
                wg.go(() -> {
                    mu.lock(); // parked until main unlocks
                    mu.unlock();
                });
                wg.go(mu::unlock);
                wg.await();
            });
            assertNull(t, () -> "unexpected " + t);
        }
    }

    @Test
    void blockedGoroutinesShowTheirWaitReasonInTheDump() {
        try (GoRuntime rt = Mixed.runtime(2, "sync-dump")) {
            Mutex mu = new Mutex();
            RWMutex rw = new RWMutex();
            WaitGroup wg = new WaitGroup();
            Semaphore sem = new Semaphore(1);
            mu.lock();
            rw.lock();
            wg.add(1);
            sem.acquire(1);
            WaitGroup finished = new WaitGroup();
            finished.add(5);
            rt.go(() -> { mu.lock(); mu.unlock(); finished.done(); });
            rt.go(() -> { rw.rlock(); rw.runlock(); finished.done(); });
            rt.go(() -> { rw.lock(); rw.unlock(); finished.done(); });
            rt.go(() -> { wg.await(); finished.done(); });
            rt.go(() -> { sem.acquire(1); sem.release(1); finished.done(); });
            for (String reason : new String[] {"sync.Mutex.Lock", "sync.RWMutex.RLock", "sync.RWMutex.Lock",
                    "sync.WaitGroup.Wait", "semacquire"}) {
                TestSupport.awaitCondition(() -> Mixed.parkedWith(rt, reason) == 1, () -> reason + " not in\n" + rt.dump());
            }
            mu.unlock();
            rw.unlock();
            wg.done();
            sem.release(1);
            finished.await(); // a platform thread waiting on a WaitGroup
        }
    }
}
