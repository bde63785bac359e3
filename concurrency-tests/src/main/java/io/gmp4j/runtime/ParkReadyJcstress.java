package io.gmp4j.runtime;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The real {@link G#park} against the real {@link G#ready} from another thread: whichever comes
 * first (a ready before the park leaves a permit, a ready after it finds WAITING and unparks),
 * the park must return. After its {@code ready} returns, the readier waits for the park to
 * return; if it sees the G WAITING instead, that park can only have missed the ready (nothing
 * parks this G again), the lost wake-up: it records that and readies once more so that the run
 * still ends. Results: lost wake-ups seen (0/1), G's park state after both (0 RUNNING: the
 * readiness consumed; 1 READIED: a permit left over that would let the next park through).
 *
 * <p>The G belongs to a scheduler made once per fork (one P, no M ever started: nothing is
 * submitted to it); {@code park} reads only its coarse clock. The parking thread is the
 * jcstress actor's platform thread, set as the G's thread, as {@code park} requires. The twin
 * in {@code src/broken/java} parks and readies with a plain check-then-set and is seen to lose
 * the wake-up. A lost wake-up of the other kind (READIED left while the thread sleeps in
 * {@code LockSupport.park}) cannot be told from a slow unpark: it would hang this fork, and so
 * the build, instead of reporting an outcome.
 */
@JCStressTest
@Outcome(id = "0, 0", expect = Expect.ACCEPTABLE, desc = "the park returned, the readiness consumed")
@Outcome(id = "1, .*", expect = Expect.FORBIDDEN, desc = "lost wake-up: WAITING after the ready returned")
@Outcome(expect = Expect.FORBIDDEN, desc = "the park returned without consuming the readiness (READIED left)")
@State
public class ParkReadyJcstress {
    private static final Scheduler SCHED = new Scheduler(new Scheduler.Config(
            "jcstress-park", 1, 1, 1, RunQueue.DEFAULT_CAPACITY, false, false, 0, false));

    /** G.parkState, read by the arbiter only: 0 RUNNING, 1 READIED, 2 WAITING. */
    private static final VarHandle PARK_STATE;

    static {
        try {
            PARK_STATE = MethodHandles.privateLookupIn(G.class, MethodHandles.lookup())
                    .findVarHandle(G.class, "parkState", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private final G g = new G(1, SCHED);
    private volatile boolean parkReturned;

    @Actor
    public void parks() {
        g.thread = Thread.currentThread();
        g.park("jcstress");
        parkReturned = true;
    }

    @Actor
    public void readies(II_Result r) {
        g.ready();
        while (!parkReturned) {
            if (g.isWaiting()) {
                r.r1 = 1;
                g.ready(); // end the lost park so that the run goes on
                return;
            }
            Thread.onSpinWait();
        }
    }

    @Arbiter
    public void after(II_Result r) {
        r.r2 = (int) PARK_STATE.getVolatile(g);
    }
}
