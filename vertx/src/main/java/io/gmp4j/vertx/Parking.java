package io.gmp4j.vertx;

import io.gmp4j.runtime.Scheduler;
import io.gmp4j.runtime.Waiter;

/**
 * The one way this module parks: {@link Waiter#park} for a wait that Vert.x ends (a completion,
 * a message, a drain). For a goroutine the wait is also counted as one that an outside party
 * ends (the runtime's {@link Scheduler#platformWait}), so that checkdead never calls a goroutine
 * waiting for the network "asleep"; a thread that is not a goroutine is counted by
 * {@code Waiter} itself.
 */
final class Parking {
    private Parking() {
    }

    /** Parks {@code w}, the caller's waiter, until its one {@link Waiter#wake}. */
    static void park(Waiter w, String reason) {
        boolean goroutine = w.goroutine() != null;
        if (goroutine) {
            Scheduler.platformWait(true);
        }
        try {
            w.park(reason);
        } finally {
            if (goroutine) {
                Scheduler.platformWait(false);
            }
        }
    }
}
