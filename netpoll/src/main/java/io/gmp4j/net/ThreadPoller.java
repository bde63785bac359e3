package io.gmp4j.net;

import io.gmp4j.runtime.spi.NetpollHost;
import io.gmp4j.runtime.spi.TaskBatch;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.ManualIoEventLoop;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The network poller as a thread of its own: a Netty {@link ManualIoEventLoop} driven by a
 * platform thread, an M without a P like sysmon (option (a) of issue 4, the default).
 *
 * <h2>A turn</h2>
 * The thread blocks in {@code loop.run(0)} until I/O is ready or a task arrives (a read
 * request, a write, a close handed over by a goroutine: {@code inEventLoop()} is never true
 * in a goroutine). The handlers it runs ({@link ConnHandler}, {@link Listener}) queue bytes or
 * connections and wake the goroutines parked on them. Each wake is {@code G.ready}, which
 * unparks the virtual thread, which makes the JDK call the scheduler's {@code execute} on this
 * thread; inside a turn ({@link NetpollHost#beginTurn}) the scheduler appends those tasks to
 * {@link #batch}, and the turn's end ({@link NetpollHost#endTurn}) injects them as one list:
 * Go's {@code netpoll} result list entering the run queues at once, an idle P started per task
 * as far as there are idle Ps. The Ms never poll this loop: {@link #netpoll} returns nothing.
 *
 * <h2>Hand-offs</h2>
 * Goroutines hand tasks to the loop with {@code execute}; Netty writes its wake-up eventfd only
 * when the loop is blocked and not already woken, so a burst of requests during one turn
 * costs one wake-up.
 */
final class ThreadPoller extends Poller {
    private static final AtomicInteger ids = new AtomicInteger();

    final ManualIoEventLoop loop;
    private final Thread thread;
    /** Tasks readied during the current turn; only the poller thread touches it. */
    private final TaskBatch batch = new TaskBatch();
    /** Turns run; written by the poller thread only. */
    private volatile long turns;
    private final AtomicBoolean started = new AtomicBoolean();
    /** Whether this poller is its runtime's (see {@link #start}). */
    private boolean attached;

    ThreadPoller(NetpollHost host) {
        super(host);
        this.thread = Thread.ofPlatform().daemon().name("gmp4j-netpoll-" + ids.incrementAndGet())
                .unstarted(this::run);
        this.loop = new ManualIoEventLoop(null, thread, transport.factory());
    }

    /**
     * Starts the thread once. Only the poller that won the attach race ({@code attached}) takes
     * over the scheduler's executes; a loser is started only to run its loop's shutdown, which
     * closes the epoll and wake-up descriptors its constructor opened.
     */
    private void start(boolean attached) {
        if (started.compareAndSet(false, true)) {
            this.attached = attached; // before Thread.start: the thread sees it
            thread.start();
        }
    }

    @Override
    void attached() {
        // Whoever gets the attached poller first starts it (the creator may not have yet: tasks
        // handed to the loop meanwhile wait in its queue).
        start(true);
    }

    @Override
    EventLoopGroup group() {
        return loop;
    }

    private void run() {
        host.unpinCurrentThread(); // started lazily, maybe by a goroutine on a pinned M
        long n = 0;
        while (!loop.isTerminated()) {
            // A poller that lost the attach race only runs its loop's shutdown: no turns.
            Object token = attached ? host.beginTurn(batch) : null;
            try {
                loop.run(0); // block until I/O or a task; 0 = no limit on the wait
            } catch (Throwable t) {
                System.err.println("gmp4j: netpoll turn failed:");
                t.printStackTrace();
            } finally {
                if (attached) {
                    host.endTurn(token, batch); // one batch per turn (Go's injectglist); clears it
                }
            }
            turns = ++n;
        }
        // The loop closed every channel on its way down: release what conns still hold.
        Object token = attached ? host.beginTurn(batch) : null;
        try {
            discardConns();
        } finally {
            if (attached) {
                host.endTurn(token, batch);
            }
        }
    }

    /** The Ms never poll this loop; its own thread does. */
    @Override
    public void netpoll(int pid, long delayNanos, TaskBatch list) {
    }

    /** No M ever blocks in this loop, so no timer waits on it. */
    @Override
    public void netpollBreak(long when) {
    }

    /** This thread never waits for a P, so sysmon has nothing to ready. */
    @Override
    public boolean sysmonPoll(long staleBefore) {
        return false;
    }

    @Override
    public boolean runsOnGoroutines() {
        return false;
    }

    @Override
    String describeLoops() {
        return "turns=" + turns;
    }

    @Override
    boolean terminated() {
        return loop.isTerminated();
    }

    @Override
    boolean awaitStopped(long millis) throws InterruptedException {
        thread.join(Math.max(1, millis));
        return !thread.isAlive() && loop.isTerminated();
    }

    @Override
    public void shutdown(long timeoutMillis) {
        loop.shutdownGracefully(0, Math.max(1, timeoutMillis), TimeUnit.MILLISECONDS);
        start(false); // never started (lost the attach race, or closed first): run the shutdown
        if (Thread.currentThread() != thread) {
            try {
                thread.join(Math.max(1, timeoutMillis));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
