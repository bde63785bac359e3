package io.gmp4j;

import io.gmp4j.runtime.Scheduler;
import io.gmp4j.runtime.Waiter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * A quiet state for counting tests ({@code MetricsTest}, the Micrometer binder's test): {@code n}
 * goroutines, each parked in a {@link Waiter} ("test wait") until {@link #wakeAll}; nothing else
 * of theirs runs meanwhile, so every count of goroutines by state is exact.
 */
public final class ParkedGoroutines {
    private final GoRuntime rt;
    private final List<Waiter> waiters = new ArrayList<>();
    private final List<Thread> threads = new ArrayList<>();

    private ParkedGoroutines(GoRuntime rt) {
        this.rt = rt;
    }

    /**
     * Starts {@code n} goroutines on {@code rt} and returns once every one has parked (its
     * thread is WAITING), within the tests' safety net.
     */
    public static ParkedGoroutines park(GoRuntime rt, int n) {
        ParkedGoroutines p = new ParkedGoroutines(rt);
        CountDownLatch published = new CountDownLatch(n);
        for (int i = 0; i < n; i++) {
            p.threads.add(Scheduler.of(rt).go(() -> {
                Waiter w = Waiter.current();
                synchronized (p.waiters) {
                    p.waiters.add(w);
                }
                published.countDown();
                w.park("test wait");
            }).thread());
        }
        TestSupport.await(published, rt::dump);
        TestSupport.awaitCondition(() -> p.threads.stream().allMatch(t -> t.getState() == Thread.State.WAITING), rt::dump);
        return p;
    }

    /** Wakes every goroutine and returns once they have all ended and the runtime has none left. */
    public void wakeAll() throws InterruptedException {
        synchronized (waiters) {
            waiters.forEach(Waiter::wake);
        }
        for (Thread t : threads) {
            t.join();
        }
        TestSupport.awaitCondition(() -> rt.numGoroutine() == 0, rt::dump);
    }
}
