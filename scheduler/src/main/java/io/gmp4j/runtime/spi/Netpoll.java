package io.gmp4j.runtime.spi;

/**
 * A runtime's network poller, as the scheduler sees it: Go's {@code netpoll},
 * {@code netpollBreak} and {@code netpollAnyWaiters}, plus sysmon's poll of a loop left
 * unpolled and the poller's lifecycle. Attached once per runtime, on first use, by
 * {@link io.gmp4j.runtime.Scheduler#attachNetpoll}, which hands it the {@link NetpollHost}
 * it talks to the scheduler through; without one the last idle M only sleeps until the next
 * timer. Implemented by the netpoll module: a Netty loop per P owned by a poll goroutine
 * ({@code -Dgmp4j.netpoll=perp}) and a loop on a thread of its own ({@code thread}).
 *
 * <p>The scheduler calls {@link #netpoll} where Go's {@code findRunnable} does, on the M that
 * holds P {@code pid}. Go lets any M poll the one epoll set; a Netty loop answers to one
 * thread only, so a per-P poller answers with its poll goroutine: {@code netpoll} readies it
 * into the result list, the M runs it, and it polls its loop (a goroutine may move between Ms,
 * the loop goes with it). A poller on a thread of its own is never polled by an M and returns
 * nothing; its thread hands each turn's goroutines over itself ({@link NetpollHost#endTurn}).
 */
public interface Netpoll {
    /**
     * Go's {@code netpoll(delay)}, from {@code findRunnable} on the M holding P {@code pid}.
     * {@code delayNanos == 0}: before stealing; must not block. Otherwise the M found nothing to
     * run anywhere and is about to give up its P: {@code delayNanos} is the time to the next
     * timer, {@code < 0} for none, and a poller that waits on an M puts the goroutine that
     * waits there in the list (a poll goroutine that blocks in its loop inside a syscall,
     * which gives the P back). Goroutines made runnable go in {@code list}, through
     * {@link NetpollHost#ready(io.gmp4j.runtime.G, TaskBatch)}; the M runs them on its P next.
     * {@code pid} may be any current P id (GOMAXPROCS may have changed since the attach).
     */
    void netpoll(int pid, long delayNanos, TaskBatch list);

    /**
     * Go's {@code netpollBreak}: a timer due at {@code when} ({@link System#nanoTime}) was
     * added; a poll blocked past it must return so that its M runs the timer. Any thread;
     * cheap when nothing is blocked.
     */
    void netpollBreak(long when);

    /** Go's {@code netpollAnyWaiters}: true while some goroutine (or thread) waits for I/O. {@code checkdead} asks. */
    boolean netpollAnyWaiters();

    /**
     * Go's sysmon poll of a network not polled for 10 ms: readies whatever polls a loop whose
     * last poll was before {@code staleBefore} (a P busy with other goroutines never reaches
     * {@link #netpoll}). Called by sysmon, not an M, so what it readies lands on the global
     * queue.
     *
     * @return whether anything was readied
     */
    boolean sysmonPoll(long staleBefore);

    /** The transport and load for the stats, e.g. {@code "epoll conns=3 waiters=1 ..."}. */
    String describe();

    /**
     * True when the poller's loops are run by goroutines: the scheduler then shuts it down
     * before it stops its Ms (the goroutines run the shutdown), and again after (idempotent).
     * Otherwise only after.
     */
    boolean runsOnGoroutines();

    /** Stops the poller and whatever runs it, waiting at most {@code timeoutMillis}. Idempotent. */
    void shutdown(long timeoutMillis);
}
