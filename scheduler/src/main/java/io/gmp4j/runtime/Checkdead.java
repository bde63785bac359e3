package io.gmp4j.runtime;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Go's checkdead for a process that holds several runtimes: "all goroutines are asleep" is a
 * statement about the whole process, because a channel belongs to no runtime and a goroutine of
 * one runtime may wake a goroutine of any other (an actor system's runtime answering an ask
 * from a goroutine of the default runtime, say).
 *
 * <p>The process is asleep when, all at one moment, no M of any runtime runs (an M blocked in
 * the network poller or on a timer counts as running), no runtime has a runnable goroutine, a
 * pending timer, a goroutine in a syscall or a network wait, no thread that is not a goroutine
 * waits on a gmp4j primitive, and every live goroutine of every open runtime is parked in
 * {@link G#park}. A goroutine blocked anywhere else (a JDK lock, {@code Thread.join},
 * {@code Future.get}, a {@code BlockingQueue}, {@code Thread.sleep}) waits on something the
 * runtime cannot see, which a platform thread, another runtime or the JDK may complete: it
 * is not asleep, and while it waits nothing is reported.
 *
 * <p>Exactness: one process-wide word counts the running Ms (low 32 bits) and the times an M
 * started running (high 32 bits). Each M updates it under its own runtime's lock before it
 * runs anything and after it stopped running anything. The check reads the word, finds no
 * running M, reads every runtime's state, and reads the word again: if it is unchanged, no M
 * ran anything in between, so no goroutine of any runtime moved (goroutines move only on
 * their runtime's Ms) and the states read form one snapshot. A platform thread that is not in
 * a gmp4j wait is invisible here, as a C thread is to Go's checkdead: it may still start or
 * ready a goroutine after a report.
 *
 * <p>The check runs in {@code stopm} when the process's last running M goes idle, so the
 * runtime whose M ends the last activity reports for every runtime whose main goroutine is
 * waited for.
 */
final class Checkdead {
    private Checkdead() {
    }

    /** Open runtimes; a runtime leaves when it closes (its goroutines can never run again). */
    private static final List<Scheduler> RUNTIMES = new CopyOnWriteArrayList<>();
    /** Low 32 bits: running Ms of every runtime. High 32 bits: M starts, wrapping. */
    private static final AtomicLong MSTATE = new AtomicLong();
    private static final long START = (1L << 32) + 1;

    static void register(Scheduler s) {
        RUNTIMES.add(s);
    }

    static void unregister(Scheduler s) {
        RUNTIMES.remove(s);
    }

    /** {@code m} starts running (created, or taken off its idle list). Caller holds its lock. */
    static void mstarted(M m) {
        if (!m.counted) {
            m.counted = true;
            MSTATE.addAndGet(START);
        }
    }

    /**
     * {@code m} stopped running: idle in stopm, or exiting. Caller holds its lock. When it was
     * the last running M of the process, runs the check: returns the main waits to notify of a
     * deadlock, which the caller hands to {@link #notifyDeadlock} once it released the lock;
     * null when something may still wake a goroutine (or no main goroutine is waited for).
     */
    static List<Scheduler.MainWait> mstopped(M m) {
        if (!m.counted) {
            return null;
        }
        m.counted = false;
        return (int) MSTATE.decrementAndGet() == 0 ? check() : null;
    }

    /**
     * Tells each of {@code deadlocked} (what {@link #mstopped} returned; null: none) that all
     * goroutines are asleep. Caller holds no runtime's lock: a main wait's {@code deadlock} is
     * code outside the scheduler, and it wakes the thread that waits for its main goroutine,
     * which goes on to use (and close) the runtimes.
     */
    static void notifyDeadlock(List<Scheduler.MainWait> deadlocked) {
        if (deadlocked != null) {
            for (Scheduler.MainWait w : deadlocked) {
                w.deadlock();
            }
        }
    }

    /**
     * Run by the process's last running M, holding its runtime's lock: the main waits to
     * notify of a deadlock, or null when something may still wake a goroutine (or no main
     * goroutine is waited for).
     */
    private static List<Scheduler.MainWait> check() {
        List<Scheduler.MainWait> mains = null;
        for (Scheduler s : RUNTIMES) {
            Scheduler.MainWait w = s.deadlockWaiter();
            if (w != null) {
                if (mains == null) {
                    mains = new ArrayList<>(1);
                }
                mains.add(w);
            }
        }
        if (mains == null) {
            return null;
        }
        long before = MSTATE.get();
        if ((int) before != 0 || Scheduler.platformWaiters.get() != 0) {
            return null;
        }
        // Cheap tests of every runtime first, the walk over every goroutine last.
        for (Scheduler s : RUNTIMES) {
            if (!s.nothingPending()) {
                return null;
            }
        }
        for (Scheduler s : RUNTIMES) {
            if (!s.allAsleep()) {
                return null;
            }
        }
        if (MSTATE.get() != before || Scheduler.platformWaiters.get() != 0) {
            return null;
        }
        return mains;
    }
}
