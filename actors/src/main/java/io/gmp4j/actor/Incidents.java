package io.gmp4j.actor;

import io.gmp4j.runtime.ShortLock;
import java.util.Arrays;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Consumer;

/**
 * An {@link ActorSystem}'s incidents: messages that could not be delivered (dead letters) and
 * actors stopped by an exception (failures). Owns their counts, the dead-letter listeners (an
 * array replaced whole under {@link #listenersLock}, read without it) and the one failure
 * listener, and reports a failure on {@code System.err} when no listener is set. The system's
 * public methods ({@link ActorSystem#onDeadLetter}, {@link ActorSystem#failureCount}, ...) are
 * its face.
 */
final class Incidents {
    /** The system's name, for the default failure report. */
    private final String systemName;
    private final LongAdder deadLetters = new LongAdder();
    private final LongAdder failures = new LongAdder();
    private final ShortLock listenersLock = new ShortLock();
    @SuppressWarnings("unchecked")
    private volatile Consumer<DeadLetter>[] deadLetterListeners = new Consumer[0];
    private volatile Consumer<Terminated> failureListener;

    Incidents(String systemName) {
        this.systemName = systemName;
    }

    /** Counts {@code msg}, not delivered to {@code recipient}, and tells the listeners, on this thread. */
    void deadLetter(Object msg, ActorRef<?> recipient) {
        deadLetters.increment();
        Consumer<DeadLetter>[] ls = deadLetterListeners;
        if (ls.length > 0) {
            DeadLetter d = new DeadLetter(msg, recipient);
            for (Consumer<DeadLetter> l : ls) {
                try {
                    l.accept(d);
                } catch (RuntimeException e) {
                    // a listener's failure is its own
                }
            }
        }
    }

    /** {@link ActorSystem#deadLetterCount}. */
    long deadLetterCount() {
        return deadLetters.sum();
    }

    /** {@link ActorSystem#onDeadLetter}: adds {@code listener}; the handle removes it. */
    Runnable onDeadLetter(Consumer<DeadLetter> listener) {
        listenersLock.lock();
        try {
            Consumer<DeadLetter>[] ls = deadLetterListeners;
            Consumer<DeadLetter>[] n = Arrays.copyOf(ls, ls.length + 1);
            n[ls.length] = listener;
            deadLetterListeners = n;
        } finally {
            listenersLock.unlock();
        }
        return () -> {
            listenersLock.lock();
            try {
                Consumer<DeadLetter>[] ls = deadLetterListeners;
                for (int i = 0; i < ls.length; i++) {
                    if (ls[i] == listener) {
                        @SuppressWarnings("unchecked")
                        Consumer<DeadLetter>[] n = new Consumer[ls.length - 1];
                        System.arraycopy(ls, 0, n, 0, i);
                        System.arraycopy(ls, i + 1, n, i, ls.length - i - 1);
                        deadLetterListeners = n;
                        return;
                    }
                }
            } finally {
                listenersLock.unlock();
            }
        };
    }

    /** Counts {@code cell}'s failure and tells the failure listener (or {@code System.err}), on this thread. */
    void failed(ActorCell<?> cell, Throwable why) {
        failures.increment();
        Consumer<Terminated> l = failureListener;
        if (l != null) {
            try {
                l.accept(new Terminated(cell, why));
            } catch (RuntimeException e) {
                // the listener's failure is its own
            }
        } else {
            // As the scheduler reports a failed task: an actor that dies silently (say of a
            // NoSuchMethodError) would look like a hang.
            System.err.println("gmp4j: actor " + cell.name() + " of actor system '" + systemName + "' failed:");
            why.printStackTrace();
        }
    }

    /** {@link ActorSystem#failureCount}. */
    long failureCount() {
        return failures.sum();
    }

    /** {@link ActorSystem#onFailure}. */
    void onFailure(Consumer<Terminated> listener) {
        failureListener = listener;
    }
}
