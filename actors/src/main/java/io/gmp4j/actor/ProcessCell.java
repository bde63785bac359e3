package io.gmp4j.actor;

import io.gmp4j.runtime.Waiter;
import java.util.ArrayDeque;
import java.util.Iterator;
import java.util.function.Predicate;

/**
 * A process actor: a goroutine running a {@link ProcessBody} that pulls messages with
 * {@code receive}. While the goroutine runs it holds the consumer role ({@code SCHEDULED});
 * in {@code receive} it publishes its {@link Waiter} as the state and parks; a sender that
 * CASes that waiter away claims and wakes it (see {@link ActorCell}). Selective receive moves
 * messages that do not match to a private stash, which later receives read first, so the
 * order of the mailbox is kept.
 */
final class ProcessCell<T> extends ActorCell<T> {
    /** Thrown by receive when a stop was requested; ends the body. Carries no stack. */
    static final class StopSignal extends Error {
        private static final long serialVersionUID = 1L;

        StopSignal() {
            super("actor stop requested", null, false, false);
        }
    }

    private static final StopSignal STOP = new StopSignal();

    private final ProcessBody<T> body;
    /** Consumer only: messages passed over by a selective receive, oldest first. */
    private ArrayDeque<T> stash;
    /** The goroutine running the body; only it may receive. */
    private volatile Thread thread;

    ProcessCell(ActorSystem system, ActorCell<?> parent, Props props, ProcessBody<T> body) {
        super(system, parent, props, SCHEDULED); // the goroutine is the consumer from the start
        if (body == null) {
            throw new NullPointerException("spawnProcess: null body");
        }
        this.body = body;
    }

    @Override
    void start() {
        system.runtime().go(this::main);
    }

    private void main() {
        thread = Thread.currentThread();
        Throwable why = null;
        boolean ownFailure = false;
        try {
            body.run(ctx);
            why = requestedStopReason(); // killed by a link, but ended before it noticed
        } catch (StopSignal s) {
            why = requestedStopReason(); // a stop request (null: normal) or a link's kill
        } catch (Throwable t) {
            why = t;
            ownFailure = true;
        }
        if (stash != null) {
            T m;
            while ((m = stash.poll()) != null) {
                system.deadLetter(m, this);
            }
        }
        beginStop(why, ownFailure);
        release();
    }

    @Override
    boolean isOwnConsumer() {
        return thread == Thread.currentThread();
    }

    @Override
    void resume() {
        // Only reached after the body ended (the goroutine never leaves SCHEDULED for IDLE while
        // it runs): nothing to do until finish() makes the rest dead letters.
        release();
    }

    /**
     * A receive that a stop request does not interrupt: for a supervisor's own body, which
     * must keep taking its children's exit notices while it stops them.
     */
    T receiveIgnoringStop(Predicate<? super T> filter) {
        return receive(filter, false, 0, true);
    }

    @Override
    T receive0(Predicate<? super T> filter, boolean timed, long deadline) {
        return receive(filter, timed, deadline, false);
    }

    private T receive(Predicate<? super T> filter, boolean timed, long deadline, boolean ignoreStop) {
        if (Thread.currentThread() != thread) {
            throw new IllegalStateException("receive() called outside process actor " + name + "'s own goroutine");
        }
        if (stash != null && !stash.isEmpty()) {
            T m = fromStash(filter);
            if (m != null) {
                return m;
            }
        }
        while (true) {
            if (stopRequested && !ignoreStop) {
                throw STOP;
            }
            T m = take();
            if (m != null) {
                if (filter == null || filter.test(m)) {
                    return m;
                }
                if (stash == null) {
                    stash = new ArrayDeque<>();
                }
                stash.add(m);
                continue;
            }
            if (timed && deadline - System.nanoTime() <= 0) {
                return null;
            }
            Waiter w = Waiter.current();
            publishWaiter(w);
            if ((stopRequested && !ignoreStop) || !mailbox.isEmpty()) {
                if (unpublishWaiter(w)) {
                    continue;
                }
                w.park("receive"); // a sender took the waiter: consume its wake-up
                continue;
            }
            if (!timed) {
                w.park("receive");
            } else if (!w.park("receive", deadline)) {
                // Timed out. A sender that took the waiter but lost the claim has already
                // moved the state to SCHEDULED; otherwise take it back ourselves.
                unpublishWaiter(w);
            }
        }
    }

    private T fromStash(Predicate<? super T> filter) {
        if (filter == null) {
            return stash.poll();
        }
        for (Iterator<T> it = stash.iterator(); it.hasNext(); ) {
            T m = it.next();
            if (filter.test(m)) {
                it.remove();
                return m;
            }
        }
        return null;
    }
}
