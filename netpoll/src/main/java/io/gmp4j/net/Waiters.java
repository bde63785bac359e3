package io.gmp4j.net;

import io.gmp4j.runtime.Waiter;
import java.util.ArrayList;
import java.util.concurrent.RejectedExecutionException;

/** The waiter lists of connections and listeners: take them under the lock, wake them after. */
final class Waiters {
    private Waiters() {
    }

    /** Caller holds the owner's lock: adds the calling thread's waiter to {@code q}, {@code w} reused when it may be; returns it. */
    static Waiter enqueue(ArrayList<Waiter> q, Waiter w) {
        if (w != null && w.reusable()) {
            w.reset();
        } else {
            w = Waiter.current();
        }
        q.add(w);
        return w;
    }

    /** Caller holds the owner's lock: empties {@code q} into a list to wake after unlocking. */
    static ArrayList<Waiter> take(ArrayList<Waiter> q) {
        ArrayList<Waiter> out = new ArrayList<>(q);
        q.clear();
        return out;
    }

    /** Wakes what {@link #take} took; a waiter whose deadline already claimed it is skipped. */
    static void wakeAll(ArrayList<Waiter> ws) {
        for (Waiter w : ws) {
            if (w.claim(Boolean.TRUE)) {
                try {
                    w.wake();
                } catch (RejectedExecutionException e) {
                    // a goroutine of a closed runtime (its poller closing the sockets): it stays
                    // abandoned, as the runtime's parked goroutines are; wake the others
                }
            }
        }
    }
}
