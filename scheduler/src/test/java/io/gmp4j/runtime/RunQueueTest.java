package io.gmp4j.runtime;

import io.gmp4j.NoUncaughtExceptions;
import io.gmp4j.TestSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The P-local run queue on its own, as Go tests it through export_test.go: the three queue
 * tests of Go's runtime (RunSchedLocalQueueTest, RunSchedLocalQueueStealTest,
 * RunSchedLocalQueueEmptyTest), overflow to the global queue, and a concurrent owner/thieves
 * stress in which every task must be seen exactly once.
 */
@ExtendWith(NoUncaughtExceptions.class)
class RunQueueTest {
    /** A task with an identity; never run, only moved. */
    record Item(int id) implements Runnable {
        @Override
        public void run() {
            throw new AssertionError("queue items are not run");
        }
    }

    private static final RunQueue.Overflow NO_OVERFLOW = (batch, n) -> fail("unexpected overflow of " + n);

    private static Item[] items(int n) {
        Item[] gs = new Item[n];
        for (int i = 0; i < n; i++) {
            gs[i] = new Item(i);
        }
        return gs;
    }

    // ---------------------------------------------------------------------------------------
    // Go's RunSchedLocalQueueTest: FIFO order of the ring for every fill level, and runnext.
    // ---------------------------------------------------------------------------------------

    @Test
    void putGetOrderAtEveryFillLevel() {
        RunQueue q = new RunQueue(RunQueue.DEFAULT_CAPACITY);
        Runnable[] scratch = new Runnable[q.capacity() / 2 + 1];
        RunQueue.Got got = new RunQueue.Got();
        Item[] gs = items(q.capacity());
        // i == capacity fills the ring exactly, still without overflow.
        for (int i = 0; i <= q.capacity(); i++) {
            assertNull(q.get(got, true), "runq is not empty initially");
            assertTrue(q.isEmpty());
            for (int j = 0; j < i; j++) {
                assertFalse(q.put(gs[j], false, NO_OVERFLOW, scratch));
            }
            assertEquals(i, q.size());
            assertEquals(i == 0, q.isEmpty());
            for (int j = 0; j < i; j++) {
                int jj = j;
                int ii = i;
                assertSame(gs[j], q.get(got, true), () -> "bad element at iter " + ii + "/" + jj);
                assertSame(gs[j], got.task);
                assertFalse(got.inheritTime, "a ring task does not inherit the time slice");
            }
            assertNull(q.get(got, true), "runq is not empty afterwards");
            assertNull(got.task);
            assertEquals(0, q.size());
        }
    }

    @Test
    void runnextRunsFirstAndKicksTheOldOneToTheTail() {
        RunQueue q = new RunQueue(8);
        Runnable[] scratch = new Runnable[5];
        RunQueue.Got got = new RunQueue.Got();
        Item a = new Item(0), b = new Item(1), c = new Item(2), d = new Item(3);

        assertFalse(q.put(a, true, NO_OVERFLOW, scratch));
        assertFalse(q.isEmpty(), "a task in runnext alone makes the queue non-empty");
        assertEquals(1, q.size());
        assertFalse(q.put(b, false, NO_OVERFLOW, scratch));
        assertFalse(q.put(c, true, NO_OVERFLOW, scratch)); // a is kicked to the tail, after b
        assertFalse(q.put(d, false, NO_OVERFLOW, scratch));
        assertEquals(4, q.size());

        assertSame(c, q.get(got, true));
        assertTrue(got.inheritTime, "the runnext task inherits the time slice");
        assertSame(b, q.get(got, true));
        assertFalse(got.inheritTime);
        assertSame(a, q.get(got, true));
        assertFalse(got.inheritTime);
        assertSame(d, q.get(got, true));
        assertNull(q.get(got, true));
        assertTrue(q.isEmpty());
    }

    @Test
    void cappedRunnextGoesToTheTailSoTheRingGetsATurn() {
        RunQueue q = new RunQueue(8);
        Runnable[] scratch = new Runnable[5];
        RunQueue.Got got = new RunQueue.Got();
        Item x = new Item(0), y = new Item(1), r = new Item(2);
        q.put(x, false, NO_OVERFLOW, scratch);
        q.put(y, false, NO_OVERFLOW, scratch);
        q.put(r, true, NO_OVERFLOW, scratch);

        assertSame(x, q.get(got, false));
        assertFalse(got.inheritTime);
        assertSame(y, q.get(got, false));
        assertSame(r, q.get(got, false));
        assertFalse(got.inheritTime, "a runnext task moved to the tail does not inherit");
        assertNull(q.get(got, false));
        assertTrue(q.isEmpty());

        // Alone in runnext with the cap reached: it still runs, from the ring.
        q.put(r, true, NO_OVERFLOW, scratch);
        assertSame(r, q.get(got, false));
        assertFalse(got.inheritTime);
        assertTrue(q.isEmpty());
    }

    @Test
    void cappedRunnextWithAFullRingWaitsForRoom() {
        RunQueue q = new RunQueue(4);
        Runnable[] scratch = new Runnable[3];
        RunQueue.Got got = new RunQueue.Got();
        Item[] gs = items(4);
        Item r = new Item(99);
        for (Item g : gs) {
            q.put(g, false, NO_OVERFLOW, scratch);
        }
        q.put(r, true, NO_OVERFLOW, scratch);
        assertEquals(5, q.size());
        List<Runnable> order = new ArrayList<>();
        for (Runnable t; (t = q.get(got, false)) != null; ) {
            order.add(t);
            assertFalse(got.inheritTime);
        }
        assertEquals(List.of(gs[0], gs[1], gs[2], gs[3], r), order, "nothing lost, ring first");
        assertTrue(q.isEmpty());
    }

    // ---------------------------------------------------------------------------------------
    // Go's RunSchedLocalQueueStealTest: a steal takes i/2 or i/2+1 of i tasks; nothing is lost.
    // ---------------------------------------------------------------------------------------

    @Test
    void stealTakesHalfAndLosesNothing() {
        RunQueue p1 = new RunQueue(RunQueue.DEFAULT_CAPACITY);
        RunQueue p2 = new RunQueue(RunQueue.DEFAULT_CAPACITY);
        Runnable[] scratch = new Runnable[p1.capacity() / 2 + 1];
        RunQueue.Got got = new RunQueue.Got();
        Item[] gs = items(p1.capacity());
        int[] sig = new int[gs.length];
        int[] stolen = new int[1];
        // The queues are reused across iterations, as in Go, so head and tail wrap around.
        for (int i = 0; i <= p1.capacity(); i++) {
            Arrays.fill(sig, 0);
            for (int j = 0; j < i; j++) {
                p1.put(gs[j], false, NO_OVERFLOW, scratch);
            }
            Runnable gp = p2.stealFrom(p1, true, false, stolen);
            int s = 0;
            if (gp != null) {
                s++;
                sig[((Item) gp).id()]++;
            }
            while ((gp = p2.get(got, true)) != null) {
                s++;
                sig[((Item) gp).id()]++;
            }
            while ((gp = p1.get(got, true)) != null) {
                sig[((Item) gp).id()]++;
            }
            for (int j = 0; j < i; j++) {
                int jj = j;
                int ii = i;
                assertEquals(1, sig[j], () -> "bad element " + jj + " (" + sig[jj] + ") at iter " + ii);
            }
            int ss = s;
            int ii = i;
            assertTrue(s == i / 2 || s == i / 2 + 1,
                    () -> "bad steal " + ss + ", want " + ii / 2 + " or " + (ii / 2 + 1) + ", iter " + ii);
            assertEquals(s, stolen[0], "stolen count reported");
            assertTrue(p1.isEmpty());
            assertTrue(p2.isEmpty());
        }
    }

    @Test
    void stealTakesTheOldestTasksAndReturnsTheLastOfThem() {
        RunQueue victim = new RunQueue(16);
        RunQueue thief = new RunQueue(16);
        Runnable[] scratch = new Runnable[9];
        RunQueue.Got got = new RunQueue.Got();
        Item[] gs = items(6);
        for (Item g : gs) {
            victim.put(g, false, NO_OVERFLOW, scratch);
        }
        int[] stolen = new int[1];
        assertSame(gs[2], thief.stealFrom(victim, false, true, stolen));
        assertEquals(3, stolen[0]);
        assertSame(gs[0], thief.get(got, true));
        assertSame(gs[1], thief.get(got, true));
        assertNull(thief.get(got, true));
        assertSame(gs[3], victim.get(got, true));
        assertEquals(2, victim.size());
    }

    @Test
    void runnextIsStolenOnlyWhenAllowedAndTheRingIsEmpty() {
        RunQueue victim = new RunQueue(8);
        RunQueue thief = new RunQueue(8);
        Runnable[] scratch = new Runnable[5];
        RunQueue.Got got = new RunQueue.Got();
        int[] stolen = new int[1];
        Item r = new Item(7);
        victim.put(r, true, NO_OVERFLOW, scratch);

        assertNull(thief.stealFrom(victim, false, false, stolen), "runnext only on the last steal pass");
        assertEquals(0, stolen[0]);
        assertEquals(1, victim.size());

        assertSame(r, thief.stealFrom(victim, true, true, stolen), "owner running: back off, then take it");
        assertEquals(1, stolen[0]);
        assertTrue(victim.isEmpty());
        assertTrue(thief.isEmpty(), "the one stolen task is returned, not queued");

        // With ring work present, runnext stays with its owner.
        Item a = new Item(1);
        victim.put(a, false, NO_OVERFLOW, scratch);
        victim.put(r, true, NO_OVERFLOW, scratch);
        assertSame(a, thief.stealFrom(victim, true, false, stolen));
        assertEquals(1, stolen[0]);
        assertSame(r, victim.get(got, true));
        assertTrue(got.inheritTime);
    }

    // ---------------------------------------------------------------------------------------
    // Go's RunSchedLocalQueueEmptyTest: runqempty never spuriously reports an empty queue while
    // a task moves from runnext to the ring.
    // ---------------------------------------------------------------------------------------

    @Test
    void isEmptyIsNeverSpuriouslyTrue() throws Exception {
        int iters = TestSupport.stress(100_000, 10_000);
        RunQueue q = new RunQueue(RunQueue.DEFAULT_CAPACITY);
        Runnable[] scratch = new Runnable[q.capacity() / 2 + 1];
        RunQueue.Got got = new RunQueue.Got();
        Item g0 = new Item(0), g1 = new Item(1);
        AtomicInteger ready = new AtomicInteger();
        AtomicInteger checked = new AtomicInteger(-1);
        AtomicInteger spuriousEmpty = new AtomicInteger();
        AtomicReference<String> firstFailure = new AtomicReference<>();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TestSupport.TIMEOUT_S);

        Thread checker = new Thread(() -> {
            for (int i = 0; i < iters; i++) {
                // Rendezvous with the owner: it has put g0 and is about to move it.
                ready.incrementAndGet();
                int target = 2 * (i + 1);
                if (!spinUntil(() -> ready.get() >= target, deadline)) {
                    firstFailure.compareAndSet(null, "checker timed out at iter " + i);
                    return;
                }
                if (q.isEmpty()) {
                    spuriousEmpty.incrementAndGet();
                    int ii = i;
                    firstFailure.compareAndSet(null, "queue is empty at iter " + ii
                            + " next: " + ((ii & 1) == 0) + " " + ((ii & 2) == 0));
                }
                checked.set(i);
            }
        }, "runq-empty-checker");
        checker.setDaemon(true);
        checker.start();

        for (int i = 0; i < iters; i++) {
            boolean next0 = (i & 1) == 0;
            boolean next1 = (i & 2) == 0;
            q.put(g0, next0, NO_OVERFLOW, scratch);
            ready.incrementAndGet();
            int ii = i;
            assertTrue(spinUntil(() -> ready.get() >= 2 * (ii + 1), deadline), () -> "owner timed out at " + ii);
            q.put(g1, next1, NO_OVERFLOW, scratch);
            assertNotNull(q.get(got, true));
            assertTrue(spinUntil(() -> checked.get() >= ii, deadline),
                    () -> "checker did not finish iter " + ii + ": " + firstFailure.get());
            assertNotNull(q.get(got, true));
            assertTrue(q.isEmpty());
        }
        checker.join(TimeUnit.SECONDS.toMillis(TestSupport.TIMEOUT_S));
        assertEquals(0, spuriousEmpty.get(), firstFailure::get);
        assertNull(firstFailure.get());
    }

    private static boolean spinUntil(java.util.function.BooleanSupplier c, long deadline) {
        int spins = 0;
        while (!c.getAsBoolean()) {
            if (++spins % 1024 == 0) {
                if (System.nanoTime() - deadline > 0) {
                    return false;
                }
                Thread.yield(); // busy cores: let the other side run
            }
            Thread.onSpinWait();
        }
        return true;
    }

    // ---------------------------------------------------------------------------------------
    // Overflow: Go's runqputslow.
    // ---------------------------------------------------------------------------------------

    @Test
    void putIntoAFullRingMovesHalfOfItPlusTheNewTaskAsOneBatch() {
        RunQueue q = new RunQueue(8);
        Runnable[] scratch = new Runnable[5];
        RunQueue.Got got = new RunQueue.Got();
        Item[] gs = items(9);
        List<List<Runnable>> batches = new ArrayList<>();
        RunQueue.Overflow record = (batch, n) -> batches.add(List.of(Arrays.copyOf(batch, n)));
        for (int i = 0; i < 8; i++) {
            assertFalse(q.put(gs[i], false, record, scratch));
        }
        assertTrue(batches.isEmpty());
        assertTrue(q.put(gs[8], false, record, scratch), "put reports the overflow");
        assertEquals(List.of(List.of(gs[0], gs[1], gs[2], gs[3], gs[8])), batches,
                "the oldest half of the ring, in order, then the new task");
        assertEquals(4, q.size());
        for (int i = 4; i < 8; i++) {
            assertSame(gs[i], q.get(got, true));
        }
        assertNull(q.get(got, true));
    }

    @Test
    void runnextKickedIntoAFullRingOverflowsWithIt() {
        RunQueue q = new RunQueue(4);
        Runnable[] scratch = new Runnable[3];
        RunQueue.Got got = new RunQueue.Got();
        Item[] gs = items(4);
        Item old = new Item(10), fresh = new Item(11);
        List<List<Runnable>> batches = new ArrayList<>();
        RunQueue.Overflow record = (batch, n) -> batches.add(List.of(Arrays.copyOf(batch, n)));
        for (Item g : gs) {
            q.put(g, false, record, scratch);
        }
        q.put(old, true, record, scratch);
        assertTrue(batches.isEmpty());
        assertTrue(q.put(fresh, true, record, scratch));
        assertEquals(List.of(List.of(gs[0], gs[1], old)), batches);
        assertSame(fresh, q.get(got, true));
        assertTrue(got.inheritTime);
        assertSame(gs[2], q.get(got, true));
        assertSame(gs[3], q.get(got, true));
        assertNull(q.get(got, true));
    }

    @Test
    void putBatchFillsTheRingAndReturnsWhatDidNotFit() {
        RunQueue q = new RunQueue(4);
        Runnable[] scratch = new Runnable[3];
        RunQueue.Got got = new RunQueue.Got();
        Item[] gs = items(7);
        q.put(gs[0], false, NO_OVERFLOW, scratch);
        Runnable[] batch = {null, gs[1], gs[2], gs[3], gs[4], gs[5], gs[6]};
        assertEquals(3, q.putBatch(batch, 1, 6), "three of six fit next to the one queued");
        assertEquals(4, q.size());
        for (int i = 0; i < 4; i++) {
            assertSame(gs[i], q.get(got, true));
        }
        assertNull(q.get(got, true));
        assertEquals(0, q.putBatch(batch, 4, 3));
        assertEquals(List.of(gs[4], gs[5], gs[6]), drain(q));
    }

    @Test
    void capacityMustBeAPowerOfTwo() {
        assertThrows(IllegalArgumentException.class, () -> new RunQueue(6));
        assertThrows(IllegalArgumentException.class, () -> new RunQueue(1));
        assertEquals(4, new RunQueue(4).capacity());
    }

    private static long spin(int n) {
        long x = n;
        for (int i = 0; i < n; i++) {
            x = x * 6364136223846793005L + 1442695040888963407L;
        }
        return x;
    }

    private static List<Runnable> drain(RunQueue q) {
        List<Runnable> out = new ArrayList<>();
        q.drainTo(out::add);
        return out;
    }

    // ---------------------------------------------------------------------------------------
    // Concurrency: one owner putting and getting, three thieves stealing; every task exactly once.
    // ---------------------------------------------------------------------------------------

    @ParameterizedTest(name = "capacity {0}")
    @ValueSource(ints = {256, 4})
    void ownerAndThreeThievesSeeEveryTaskExactlyOnce(int capacity) throws Exception {
        int n = TestSupport.stress(5_000_000, 500_000);
        int thieves = 3;
        RunQueue q = new RunQueue(capacity);
        AtomicIntegerArray seen = new AtomicIntegerArray(n);
        AtomicInteger total = new AtomicInteger();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicInteger overflowBatches = new AtomicInteger();
        AtomicInteger stealsDone = new AtomicInteger();
        AtomicInteger stolenTotal = new AtomicInteger();
        AtomicInteger attempts = new AtomicInteger();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TestSupport.TIMEOUT_S);
        AtomicBoolean done = new AtomicBoolean(); // set once the owner stops putting

        java.util.function.Consumer<Runnable> see = r -> {
            if (!(r instanceof Item it)) {
                throw new AssertionError("queue returned " + r);
            }
            int prev = seen.getAndIncrement(it.id());
            if (prev != 0) {
                throw new AssertionError("task " + it.id() + " seen " + (prev + 1) + " times");
            }
            total.incrementAndGet();
        };

        List<Thread> threads = new ArrayList<>();
        CountDownLatch started = new CountDownLatch(thieves);
        for (int k = 0; k < thieves; k++) {
            int seed = k;
            Thread t = new Thread(() -> {
                try {
                    RunQueue mine = new RunQueue(capacity);
                    RunQueue.Got got = new RunQueue.Got();
                    int[] stolen = new int[1];
                    SplittableRandom rnd = new SplittableRandom(seed);
                    int idle = 0;
                    started.countDown();
                    while (failure.get() == null) {
                        boolean finished = done.get(); // read before the steal attempt
                        boolean takeNext = rnd.nextInt(4) == 0;
                        boolean ownerRunning = rnd.nextInt(64) == 0; // 3 us back-off: rarely
                        Runnable r = mine.stealFrom(q, takeNext, ownerRunning, stolen);
                        attempts.incrementAndGet();
                        if (r == null) {
                            assertEquals(0, stolen[0]);
                            if (finished) {
                                return;
                            }
                            if (++idle % 256 == 0) {
                                if (System.nanoTime() - deadline > 0) {
                                    throw new AssertionError("thief timed out");
                                }
                                Thread.yield(); // busy cores: let the owner run now and then
                            }
                            Thread.onSpinWait();
                            continue;
                        }
                        stealsDone.incrementAndGet();
                        stolenTotal.addAndGet(stolen[0]);
                        see.accept(r);
                        int local = 1;
                        for (Runnable x; (x = mine.get(got, rnd.nextBoolean())) != null; ) {
                            see.accept(x);
                            local++;
                        }
                        assertEquals(stolen[0], local, "a steal returns one task and queues the rest");
                        assertTrue(mine.isEmpty());
                    }
                } catch (Throwable e) {
                    failure.compareAndSet(null, e);
                }
            }, "runq-thief-" + k);
            t.setDaemon(true);
            threads.add(t);
        }
        threads.forEach(Thread::start);
        TestSupport.await(started, () -> "thieves did not start");
        long sink = 0;

        Runnable[] scratch = new Runnable[capacity / 2 + 1];
        RunQueue.Got got = new RunQueue.Got();
        RunQueue.Overflow toGlobal = (batch, cnt) -> {
            assertEquals(capacity / 2 + 1, cnt);
            overflowBatches.incrementAndGet();
            for (int i = 0; i < cnt; i++) {
                see.accept(batch[i]);
            }
        };
        SplittableRandom rnd = new SplittableRandom(42);
        try {
            for (int id = 0; id < n && failure.get() == null; id++) {
                q.put(new Item(id), rnd.nextInt(4) == 0, toGlobal, scratch);
                // "Run a task": a little work between queue operations opens the windows in
                // which thieves race the owner, as in the scheduler.
                sink += spin(rnd.nextInt(64));
                if (rnd.nextInt(4) == 0) {
                    Runnable r = q.get(got, rnd.nextInt(8) != 0);
                    if (r != null) {
                        see.accept(r);
                    }
                }
            }
        } catch (Throwable e) {
            failure.compareAndSet(null, e);
        }
        done.set(true);
        try {
            for (Runnable r; (r = q.get(got, true)) != null; ) {
                see.accept(r);
            }
        } catch (Throwable e) {
            failure.compareAndSet(null, e);
        }
        for (Thread t : threads) {
            t.join(TimeUnit.SECONDS.toMillis(TestSupport.TIMEOUT_S));
            assertFalse(t.isAlive(), t.getName() + " did not finish");
        }
        if (failure.get() != null) {
            throw new AssertionError("capacity " + capacity + ": " + failure.get(), failure.get());
        }
        assertTrue(q.isEmpty());
        assertEquals(n, total.get(), "every task seen once in total");
        for (int i = 0; i < n; i++) {
            if (seen.get(i) != 1) {
                fail("task " + i + " seen " + seen.get(i) + " times");
            }
        }
        assertTrue(stealsDone.get() > 0, "the thieves stole something");
        assertNotEquals(42, sink);
        System.out.printf("runq capacity %d: %d tasks, %d steals (%d tasks), %d overflow batches, %d attempts%n",
                capacity, n, stealsDone.get(), stolenTotal.get(), overflowBatches.get(), attempts.get());
    }
}
