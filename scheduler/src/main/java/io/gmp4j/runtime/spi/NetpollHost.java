package io.gmp4j.runtime.spi;

import io.gmp4j.runtime.G;
import io.gmp4j.runtime.Scheduler;

/**
 * The scheduler as its {@link Netpoll} sees it, handed over at the attach (Netty's
 * {@code IoHandler} gets its loop the same way): everything a poller does to the scheduler goes
 * through here. Calls from a thread or goroutine of another runtime act as from a thread that
 * is not an M: nothing is batched and every landing is the global queue.
 */
public interface NetpollHost {
    /** The runtime this host belongs to (for {@code go}, {@code gomaxprocs}, the stats). */
    Scheduler scheduler();

    /**
     * Begins a poll turn of the caller: until {@link #endTurn}, every goroutine the caller
     * readies, by {@code G.ready()} in a handler or by the JDK's wake-up of a virtual thread,
     * is appended to {@code turn} instead of queueing one by one. The caller is a poll goroutine
     * of this runtime (the batch follows it from M to M) or a poller thread that is not an M
     * (one per runtime: a second thread is refused). Returns the token for {@code endTurn}.
     *
     * @throws IllegalStateException when another thread already runs this runtime's turns
     */
    Object beginTurn(TaskBatch turn);

    /**
     * Ends the turn {@link #beginTurn} began and makes its goroutines runnable as one list: on
     * an M of this runtime the last one readied goes to this P's runnext (the M runs it next,
     * as Go's {@code findRunnable} runs the first netpoll result), and the rest enter by Go's
     * {@code injectglist}: as many to the global queue as there are idle Ps, an M started for
     * each, the others to the local queue. Off an M, all go to the global queue. Empties
     * {@code turn}.
     */
    void endTurn(Object token, TaskBatch turn);

    /**
     * {@code g.ready()} landing where the caller says. The caller is on an M of this runtime
     * for the landing to apply; elsewhere it is a plain ready (the global queue).
     */
    void ready(G g, Landing where);

    /**
     * {@code g.ready()} appending {@code g} to {@code list}, a {@link Netpoll#netpoll} result:
     * the M that asked runs it. Only from inside {@code netpoll}, on that M. If {@code g} is
     * still on its way to park on another M, the ready leaves a permit instead and nothing is
     * appended: {@code g} goes on running there.
     */
    void ready(G g, TaskBatch list);

    /**
     * Go's {@code entersyscall} for a poll goroutine about to block in its loop because an M
     * found nothing to run ({@link Netpoll#netpoll} with a delay): its P goes back to the idle
     * list, as Go's {@code findRunnable} releases its P before the last M blocks in
     * {@code netpoll}, unless work reached it meanwhile (then Go's {@code handoffp}). Returns
     * the token for {@link #exitsyscall}, 0 without a P.
     */
    long entersyscallIdle();

    /** Go's {@code exitsyscall} for the token {@link #entersyscallIdle} returned. */
    void exitsyscall(long token);

    /** The id of the P the caller runs on, or -1 off an M of this runtime or without a P. */
    int currentPid();

    /**
     * Lets the calling thread run on every CPU of the process again when carriers are pinned
     * ({@code pinCarriers}): a thread inherits its creator's affinity, so a poller thread
     * started from a goroutine calls this first. No-op otherwise.
     */
    void unpinCurrentThread();
}
