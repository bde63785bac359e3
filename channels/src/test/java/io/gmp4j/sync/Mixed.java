package io.gmp4j.sync;

import io.gmp4j.GoRuntime;
import io.gmp4j.TestSupport;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/** Runs a body on goroutines and platform threads at once, and fails the test if any failed. */
final class Mixed {
    /** A worker body; {@code id} is 0..goroutines+platforms-1, platform threads last. */
    @FunctionalInterface
    interface Body {
        void run(int id) throws Exception;
    }

    private Mixed() {
    }

    static void run(GoRuntime rt, int goroutines, int platforms, Body body) {
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(goroutines + platforms);
        for (int i = 0; i < goroutines + platforms; i++) {
            int id = i;
            Runnable r = () -> {
                try {
                    body.run(id);
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                } finally {
                    done.countDown();
                }
            };
            if (i < goroutines) {
                rt.go(r);
            } else {
                Thread.ofPlatform().daemon().name("mixed-" + id).start(r);
            }
        }
        boolean finished;
        try {
            finished = done.await(TestSupport.TIMEOUT_S, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            throw new AssertionError("interrupted", e);
        }
        Throwable t = failure.get();
        if (!finished) {
            // A worker that failed may have left the others waiting for it: report both.
            throw new AssertionError("timed out after " + TestSupport.TIMEOUT_S + " s: " + rt.stats() + "\n" + rt.dump(), t);
        }
        if (t != null) {
            throw new AssertionError("a worker failed", t);
        }
    }

    /** A runtime for the given GOMAXPROCS. */
    static GoRuntime runtime(int procs, String name) {
        return GoRuntime.builder().maxProcs(procs).name(name + "-p" + procs).build();
    }

    /** How many goroutines of {@code rt} are parked with {@code reason}. */
    static int parkedWith(GoRuntime rt, String reason) {
        String dump = rt.dump();
        String needle = "[" + reason;
        int n = 0;
        for (int at = dump.indexOf(needle); at >= 0; at = dump.indexOf(needle, at + 1)) {
            n++;
        }
        return n;
    }
}
