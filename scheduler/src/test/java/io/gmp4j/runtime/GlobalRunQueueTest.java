package io.gmp4j.runtime;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/** The global queue's batch operations keep FIFO order across the ring's wrap and its growth. */
class GlobalRunQueueTest {
    private static Runnable[] tasks(int from, int n) {
        Runnable[] out = new Runnable[n];
        for (int i = 0; i < n; i++) {
            int id = from + i;
            out[i] = new Named(id);
        }
        return out;
    }

    private record Named(int id) implements Runnable {
        @Override
        public void run() {
        }
    }

    private static List<Integer> drain(GlobalRunQueue q) {
        List<Integer> ids = new ArrayList<>();
        Runnable r;
        while ((r = q.poll()) != null) {
            ids.add(((Named) r).id());
        }
        return ids;
    }

    @Test
    void pollBatchTakesTheOldestInOrderAcrossTheWrapAndStopsAtSize() {
        GlobalRunQueue q = new GlobalRunQueue();
        int next = 0;
        int expect = 0;
        Runnable[] dst = new Runnable[400];
        // Push the head round the 1024-slot ring several times with batches of odd sizes.
        for (int round = 0; round < 40; round++) {
            q.putBatch(tasks(next, 97), 0, 97);
            next += 97;
            int got = q.pollBatch(dst, 90);
            assertEquals(90, got);
            for (int i = 0; i < got; i++) {
                assertEquals(expect++, ((Named) dst[i]).id());
            }
        }
        assertEquals(next - expect, q.size());
        int got = q.pollBatch(dst, 400);
        assertEquals(next - expect, got, "a batch larger than the queue takes what there is");
        for (int i = 0; i < got; i++) {
            assertEquals(expect++, ((Named) dst[i]).id());
        }
        assertEquals(0, q.size());
        assertEquals(0, q.pollBatch(dst, 10));
        assertNull(q.poll());
    }

    @Test
    void putHeadBatchPutsTasksBackBeforeTheRestInTheirOrder() {
        GlobalRunQueue q = new GlobalRunQueue();
        q.putBatch(tasks(0, 10), 0, 10);
        Runnable[] dst = new Runnable[8];
        assertEquals(8, q.pollBatch(dst, 8));
        // Say only the first three fitted in a local queue: 3..7 go back to the head.
        q.putHeadBatch(dst, 3, 5);
        assertEquals(List.of(3, 4, 5, 6, 7, 8, 9), drain(q));
    }

    @Test
    void putHeadBatchGrowsAFullRingWithoutLosingOrder() {
        GlobalRunQueue q = new GlobalRunQueue();
        q.putBatch(tasks(100, 1024), 0, 1024); // full
        q.putHeadBatch(tasks(0, 100), 0, 100);
        List<Integer> ids = drain(q);
        assertEquals(1124, ids.size());
        for (int i = 0; i < ids.size(); i++) {
            assertEquals(i, ids.get(i));
        }
    }
}
