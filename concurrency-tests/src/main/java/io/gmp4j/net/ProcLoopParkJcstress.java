package io.gmp4j.net;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * The Dekker pair of {@code ProcLoop}: its poll goroutine going to sleep after a turn
 * ({@code parkUntilWanted}: store IDLE, load {@code dirty}, CAS IDLE to RUNNING) against a
 * task handed to its loop from another thread ({@code want}: store {@code dirty}, load the
 * state, CAS IDLE to QUEUED, then ready the goroutine). Exactly one side must keep the poll
 * goroutine going: none is a task left unpolled in the loop with its goroutine parked for
 * good; both cannot happen (one CAS from IDLE wins). Results: the goroutine went on by itself
 * (1/0), the waker readied it (1/0), the final state (0 IDLE: parked and not wanted).
 *
 * <p>The state and both sides are {@link ProcLoopParkModel}'s, a model of
 * {@code ProcLoop.parkUntilWanted} and {@code ProcLoop.want}/{@code claim}, line for line, on
 * the same fields with the same types and access modes. The twin in {@code src/broken/java}
 * runs the same model with release stores and acquire loads (no StoreLoad) and is seen to lose
 * the wake-up.
 */
@JCStressTest
@Outcome(id = "1, 0, 2", expect = Expect.ACCEPTABLE, desc = "the goroutine saw dirty and ran another turn")
@Outcome(id = "0, 1, 1", expect = Expect.ACCEPTABLE, desc = "the waker won IDLE -> QUEUED and readied it")
@Outcome(id = "0, 0, 0", expect = Expect.FORBIDDEN, desc = "lost wake-up: a task handed over, the goroutine parked for good")
@Outcome(expect = Expect.FORBIDDEN, desc = "both sides took the goroutine, or a state out of the protocol")
@State
public class ProcLoopParkJcstress extends ProcLoopParkModel {
    /** The poll goroutine, after a turn, goes to sleep. */
    @Actor
    public void pollGoroutineParks(III_Result r) {
        r.r1 = parkUntilWanted();
    }

    /** Another thread hands a task to the loop and claims its goroutine. */
    @Actor
    public void taskHandedOver(III_Result r) {
        r.r2 = want();
    }

    /** The final state. */
    @Arbiter
    public void outcome(III_Result r) {
        r.r3 = state();
    }
}
