package io.gmp4j.net;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The state and the two sides of {@link ProcLoopParkJcstress}'s race: {@code ProcLoop}'s poll
 * goroutine going to sleep after a turn against a task handed to its loop from another thread.
 *
 * <p>{@code ProcLoop} needs a Netty loop and a running scheduler, so this is a model of
 * {@code ProcLoop.parkUntilWanted} and {@code ProcLoop.want}/{@code claim}, line for line, on
 * the same fields with the same types and access modes ({@code state} an
 * {@link AtomicInteger}, {@code dirty} a volatile boolean); the turn before it has cleared
 * {@code dirty} and the goroutine is RUNNING. {@code ProcLoopAccessModesTest} in netpoll checks
 * that the production fields keep those types and modifiers. Each side's store and the load
 * that follows it are a step of their own ({@link #storeIdleThenLoadDirty},
 * {@link #storeDirtyThenLoadIdle}): the two halves of the Dekker pair, each a volatile store
 * then a volatile load, which the protocol rests on.
 */
class ProcLoopParkModel {
    static final int IDLE = 0;
    static final int QUEUED = 1;
    static final int RUNNING = 2;

    /** ProcLoop.state: RUNNING after a turn. */
    final AtomicInteger state = new AtomicInteger(RUNNING);
    /** ProcLoop.dirty: cleared when the turn began. */
    volatile boolean dirty;

    /**
     * ProcLoop.parkUntilWanted (blockWanted false: no M asked for a blocking turn).
     *
     * @return 1 if the goroutine saw {@code dirty} and went on by itself, else 0
     */
    final int parkUntilWanted() {
        // "if ((dirty || blockWanted) && state.compareAndSet(IDLE, RUNNING)) return;"
        if (storeIdleThenLoadDirty() && state.compareAndSet(IDLE, RUNNING)) {
            return 1;
        }
        return 0; // "g.park("netpoll")": returns only if a waker readied it
    }

    /** "state.set(IDLE); // volatile store, then the load of dirty". */
    boolean storeIdleThenLoadDirty() {
        state.set(IDLE);
        return dirty;
    }

    /**
     * ProcLoop.want, through claim().
     *
     * @return 1 if the waker won IDLE to QUEUED (and so readies the goroutine), else 0
     */
    final int want() {
        // claim: "state.get() == IDLE && state.compareAndSet(IDLE, QUEUED)", then want readies g
        return storeDirtyThenLoadIdle() && state.compareAndSet(IDLE, QUEUED) ? 1 : 0;
    }

    /** "dirty = true;" (volatile store), then claim's "state.get() == IDLE" (volatile load). */
    boolean storeDirtyThenLoadIdle() {
        dirty = true;
        return state.get() == IDLE;
    }

    /** ProcLoop.state, read after both sides are done. */
    final int state() {
        return state.get();
    }
}
