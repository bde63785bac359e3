package io.gmp4j;

import io.gmp4j.runtime.Scheduler;
import io.gmp4j.runtime.G;
import io.gmp4j.runtime.spi.Netpoll;
import io.gmp4j.runtime.spi.NetpollHost;
import io.gmp4j.runtime.spi.TaskBatch;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A stand-in network poller for the scheduler's tests: waiters as the test says, shutdowns
 * counted, and one goroutine at a time that the next {@link #netpoll} readies into its result
 * list; its {@link #host} is how the tests reach the scheduler's netpoll side.
 */
final class FakeNetpoll implements Netpoll {
    final NetpollHost host;
    final AtomicInteger waiters = new AtomicInteger();
    final AtomicInteger shutdowns = new AtomicInteger();
    /** Readied into the list by the next netpoll call on an M, then cleared. */
    final AtomicReference<G> pending = new AtomicReference<>();
    /** The delay of the last netpoll call that readied {@link #pending}. */
    volatile long readiedWithDelay = Long.MIN_VALUE;

    FakeNetpoll(NetpollHost host) {
        this.host = host;
    }

    /** Attaches a fake to {@code rt} (or finds the one attached) and returns it. */
    static FakeNetpoll attach(GoRuntime rt) {
        return (FakeNetpoll) Scheduler.of(rt).attachNetpoll(FakeNetpoll::new);
    }

    @Override
    public void netpoll(int pid, long delayNanos, TaskBatch list) {
        G g = pending.getAndSet(null);
        if (g != null) {
            readiedWithDelay = delayNanos;
            host.ready(g, list);
        }
    }

    @Override
    public void netpollBreak(long when) {
    }

    @Override
    public boolean netpollAnyWaiters() {
        return waiters.get() > 0;
    }

    @Override
    public boolean sysmonPoll(long staleBefore) {
        return false;
    }

    @Override
    public String describe() {
        return "fake waiters=" + waiters.get();
    }

    @Override
    public boolean runsOnGoroutines() {
        return false;
    }

    @Override
    public void shutdown(long timeoutMillis) {
        shutdowns.incrementAndGet();
    }
}
