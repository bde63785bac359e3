package io.gmp4j.runtime;

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
 * <p>The state and both sides are {@link ParkReadyModel}'s: a real G of a scheduler made once
 * per fork, parked by the jcstress actor's platform thread. The twin in {@code src/broken/java}
 * runs the same model and the same G with the park a plain check-then-set in place of its
 * compareAndExchange, and is seen to lose the wake-up. A lost wake-up of the other kind
 * (READIED left while the thread sleeps in {@code LockSupport.park}) cannot be told from a slow
 * unpark: it would hang this fork, and so the build, instead of reporting an outcome.
 */
@JCStressTest
@Outcome(id = "0, 0", expect = Expect.ACCEPTABLE, desc = "the park returned, the readiness consumed")
@Outcome(id = "1, .*", expect = Expect.FORBIDDEN, desc = "lost wake-up: WAITING after the ready returned")
@Outcome(expect = Expect.FORBIDDEN, desc = "the park returned without consuming the readiness (READIED left)")
@State
public class ParkReadyJcstress extends ParkReadyModel {
    /** The G's own thread parks it. */
    @Actor
    public void parks() {
        parkAsTheG();
    }

    /** Another thread readies the G, then watches for the park to return. */
    @Actor
    public void readies(II_Result r) {
        r.r1 = readyThenAwaitPark();
    }

    /** The G's park state after both. */
    @Arbiter
    public void after(II_Result r) {
        r.r2 = parkState();
    }
}
