package io.gmp4j.runtime;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The state and the two sides of {@link ParkReadyJcstress}'s race: a G parked by its own thread
 * against {@link G#ready} from another thread, which afterwards watches for the park to return.
 *
 * <p>The G belongs to a scheduler made once per fork (one P, no M ever started: nothing is
 * submitted to it); {@code park} reads only its coarse clock. The parking thread is the
 * jcstress actor's platform thread, set as the G's thread, as {@code park} requires. The park
 * itself is a step of its own, {@link #park}: the one atomic step that publishes WAITING or
 * finds the permit, which the protocol rests on.
 */
class ParkReadyModel {
    private static final Scheduler SCHED = new Scheduler(new Scheduler.Config(
            "jcstress-park", 1, 1, 1, RunQueue.DEFAULT_CAPACITY, false, false, 0, false));

    /** G.parkState: 0 RUNNING, 1 READIED, 2 WAITING (G's constants). */
    static final VarHandle PARK_STATE;

    static {
        try {
            PARK_STATE = MethodHandles.privateLookupIn(G.class, MethodHandles.lookup())
                    .findVarHandle(G.class, "parkState", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    final G g = new G(1, SCHED);
    private volatile boolean parkReturned;

    /** The parking side: the calling thread becomes the G's thread and parks it. */
    final void parkAsTheG() {
        g.thread = Thread.currentThread();
        park();
        parkReturned = true;
    }

    /** The real {@link G#park}: one compareAndExchange from RUNNING to WAITING, or the permit. */
    void park() {
        g.park("jcstress");
    }

    /**
     * The readying side: the real {@link G#ready}, then a wait for the park to return. A G seen
     * WAITING instead can only be a park that missed the ready (nothing parks this G again):
     * the lost wake-up, which is readied once more so that the run still ends.
     *
     * @return 1 if the lost wake-up was seen, else 0
     */
    final int readyThenAwaitPark() {
        g.ready();
        while (!parkReturned) {
            if (g.isWaiting()) {
                g.ready(); // end the lost park so that the run goes on
                return 1;
            }
            Thread.onSpinWait();
        }
        return 0;
    }

    /** G's park state, read after both sides are done. */
    final int parkState() {
        return (int) PARK_STATE.getVolatile(g);
    }
}
