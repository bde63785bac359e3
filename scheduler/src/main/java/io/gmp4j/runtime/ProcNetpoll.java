package io.gmp4j.runtime;

/**
 * Per-P network pollers (issue 4's option (b)): one event loop per P, driven by a poll
 * goroutine of that P instead of a thread of its own. Go lets any M poll the one netpoller;
 * a Netty loop answers only to its owning thread, so here each P's loop is owned by a
 * goroutine, and the scheduler readies that goroutine where Go would call {@code netpoll}:
 * <ul>
 *   <li>{@link #pollNow}: {@code findRunnable}, holding P {@code pid} with an empty local queue,
 *       before stealing (Go's non-blocking {@code netpoll(0)});</li>
 *   <li>{@link #pollBlocking}: {@code findRunnable} with nothing to run anywhere, before the M
 *       sleeps (Go's blocking {@code netpoll(delay)} by the last idle M): the poll goroutine
 *       blocks in its loop inside a syscall, which hands the P off;</li>
 *   <li>{@link #sysmonPoll}: sysmon, when a P's loop has not been polled for 10 ms (a P busy
 *       with other goroutines never reaches {@code pollNow}).</li>
 * </ul>
 * Readying is {@link G#ready}: from the M inside {@code findRunnable} the poll goroutine
 * lands in that P's runnext, so the M runs it next. The goroutines a poll readies are
 * collected with {@link Scheduler#beginBatch} and enter the run queues as one batch.
 * Attached like a {@link NetpollThread} ({@link Scheduler#netpollThread(java.util.function.Supplier)}).
 *
 * <p>The loops are made once, for the GOMAXPROCS of the attach; GOMAXPROCS may change later
 * ({@link Scheduler#gomaxprocs(int)}). The loops belong to their poll goroutines, not to Ps, so
 * they keep working on whatever Ps exist, and a {@code pid} passed here may be any current P
 * id, including ids at or above the loop count: an implementation maps it onto its loops.
 */
public interface ProcNetpoll extends NetpollThread {
    /**
     * Readies P {@code pid}'s poll goroutine for a non-blocking poll if its loop has channels
     * or tasks and the goroutine is parked. Called by the M holding P {@code pid}.
     *
     * @return true if the poll goroutine was readied (it is in this P's runnext)
     */
    boolean pollNow(int pid);

    /**
     * Readies P {@code pid}'s poll goroutine to block in its loop until I/O, a task, or
     * {@code deadline} ({@link System#nanoTime}; 0 for none). Called by the M holding P
     * {@code pid} when it found nothing to run.
     *
     * @return true if the poll goroutine was readied (it is in this P's runnext)
     */
    boolean pollBlocking(int pid, long deadline);

    /** Sysmon: readies every parked poll goroutine with channels not polled since {@code staleBefore}. */
    boolean sysmonPoll(long staleBefore);

    /** Go's netpollBreak for every loop blocked in a poll past {@code when}: a timer was added. Any thread. */
    void wakeup(long when);
}
