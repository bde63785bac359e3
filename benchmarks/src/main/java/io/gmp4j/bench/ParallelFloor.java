package io.gmp4j.bench;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * The machine's own ceiling for {@code fib}'s speed-up (impl {@code direct}): the same leaves
 * that {@link Bodies#fib} computes as goroutines, computed by {@code procs} platform threads
 * that share one atomic leaf counter. No goroutines, no joins, no run queues: ideal dynamic load
 * balance with nothing to steal. The threads are started once and parked between repetitions,
 * as a runtime's idle Ms are, so each repetition pays the same wake-ups a scheduler pays. Its
 * procs 1 / procs 2 ratio is what two cores of this machine give for this much work; a
 * scheduler's fib speed-up can approach it but not pass it.
 */
final class ParallelFloor implements AutoCloseable {
    private final int[] leaves;
    private final Worker[] workers;
    private final AtomicInteger next = new AtomicInteger();
    private final AtomicLong sum = new AtomicLong();
    private volatile CountDownLatch done;
    private volatile boolean closed;

    ParallelFloor(int procs, int n, int spawnDepth) {
        List<Integer> l = new ArrayList<>();
        collectLeaves(n, 0, spawnDepth, l);
        this.leaves = l.stream().mapToInt(Integer::intValue).toArray();
        this.workers = new Worker[procs];
        for (int i = 0; i < procs; i++) {
            workers[i] = new Worker("parallel-floor-" + i);
            workers[i].start();
        }
    }

    /** The leaves of {@link Bodies#fib}'s recursion, in the order it spawns them. */
    private static void collectLeaves(int n, int depth, int spawnDepth, List<Integer> out) {
        if (depth >= spawnDepth || n < 2) {
            out.add(n);
            return;
        }
        collectLeaves(n - 1, depth + 1, spawnDepth, out);
        collectLeaves(n - 2, depth + 1, spawnDepth, out);
    }

    int leafCount() {
        return leaves.length;
    }

    /** One repetition: wakes every worker, waits until all leaves are summed, returns the sum. */
    long run() throws InterruptedException {
        next.set(0);
        sum.set(0);
        CountDownLatch d = new CountDownLatch(workers.length);
        done = d; // volatile: publishes the reset counters to the workers before their wake-up
        for (Worker w : workers) {
            w.go = true;
            LockSupport.unpark(w);
        }
        d.await();
        return sum.get();
    }

    @Override
    public void close() {
        closed = true;
        for (Worker w : workers) {
            LockSupport.unpark(w);
        }
    }

    private final class Worker extends Thread {
        volatile boolean go;

        Worker(String name) {
            super(name);
            setDaemon(true);
        }

        @Override
        public void run() {
            while (!closed) {
                if (!go) {
                    LockSupport.park(this);
                    continue;
                }
                go = false;
                long s = 0;
                for (int i; (i = next.getAndIncrement()) < leaves.length; ) {
                    s += Bodies.fibSeq(leaves[i]);
                }
                sum.addAndGet(s);
                done.countDown();
            }
        }
    }
}
