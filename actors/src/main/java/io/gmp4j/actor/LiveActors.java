package io.gmp4j.actor;

import io.gmp4j.GoRuntime;
import io.gmp4j.chan.Chan;
import io.gmp4j.chan.Select;
import io.gmp4j.runtime.ShortLock;
import java.time.Duration;
import java.util.HashSet;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An {@link ActorSystem}'s live actors: the top-level actors, the count of every actor spawned
 * and not yet completely stopped, and the stop-and-wait of the shutdown (new top-level actors
 * refused, the top level stopped, each stopping its children first, and a wait until the
 * count is zero, signalled by closing {@link #allStopped}). {@link ActorSystem#shutdown} and
 * {@link ActorSystem#liveActors} are its face.
 */
final class LiveActors {
    private final ShortLock topLock = new ShortLock();
    private final HashSet<ActorCell<?>> topLevel = new HashSet<>();
    private boolean closing; // guarded by topLock
    private final AtomicLong live = new AtomicLong();
    private final Chan<Object> allStopped = new Chan<>();
    private final AtomicBoolean allStoppedClosed = new AtomicBoolean();
    private volatile boolean shutDown;

    /** Adds {@code cell} to the top level, counted as live; false once the shutdown has begun. */
    boolean addTopLevel(ActorCell<?> cell) {
        boolean added;
        topLock.lock();
        try {
            added = !closing;
            if (added) {
                topLevel.add(cell);
                live.incrementAndGet();
            }
        } finally {
            topLock.unlock();
        }
        return added;
    }

    /** Adds {@code cell} to {@code parent}'s children, counted as live; false if the parent is stopping. */
    boolean addChild(ActorCell<?> parent, ActorCell<?> cell) {
        // Counted first: a parent's finish cannot complete the shutdown while a child it
        // accepted is not yet counted.
        live.incrementAndGet();
        boolean added = parent.addChild(cell);
        if (!added) {
            actorGone();
        }
        return added;
    }

    /** {@code cell}, a top-level actor, has finished. */
    void topLevelTerminated(ActorCell<?> cell) {
        topLock.lock();
        try {
            topLevel.remove(cell);
        } finally {
            topLock.unlock();
        }
        actorGone();
    }

    /** Called once per finished actor (and for a spawn that was refused). */
    void actorGone() {
        if (live.decrementAndGet() == 0 && shutDown) {
            signalAllStopped();
        }
    }

    private void signalAllStopped() {
        if (allStoppedClosed.compareAndSet(false, true)) {
            allStopped.close();
        }
    }

    /** {@link ActorSystem#liveActors}. */
    long count() {
        return live.get();
    }

    /** {@link ActorSystem#isShutDown}. */
    boolean isShutDown() {
        return shutDown;
    }

    /**
     * Refuses top-level spawns from now on, stops every top-level actor and waits up to
     * {@code timeout} until every actor has stopped (on a closed {@code runtime}, only looks).
     *
     * @return true if every actor stopped in time
     */
    boolean stopAll(GoRuntime runtime, Duration timeout) {
        ActorCell<?>[] roots;
        topLock.lock();
        try {
            closing = true;
            roots = topLevel.toArray(new ActorCell<?>[0]);
        } finally {
            topLock.unlock();
        }
        shutDown = true;
        if (live.get() == 0) {
            signalAllStopped();
        }
        for (ActorCell<?> r : roots) {
            r.stop();
        }
        boolean stopped;
        if (!runtime.isClosed()) {
            Select s = new Select();
            int done = s.recv(allStopped);
            s.timeout(timeout);
            stopped = s.select() == done;
        } else {
            stopped = live.get() == 0;
        }
        return stopped;
    }
}
