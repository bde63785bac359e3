package io.gmp4j.runtime;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Go's {@code needspinning} (proc.go's pidlegetSpinning): a submitter's {@code wakep} takes
 * {@code nmspinning} from 0 to 1 and then finds no idle P, because another M took
 * the last one in between. While that 1 stands, an M that runs out of work (P_B's) may skip
 * spinning ({@code 2 * nmspinning < gomaxprocs - npidle} fails) and so release its P without
 * the spinning M's re-check. {@code Workers.wakep} therefore sets {@code needspinning} and drops
 * its 1 in the critical section that found no P, and an M about to release its P under the same
 * lock spins instead while it is set. Either the submitter takes an idle P (P_B's, released
 * before its critical section) or P_B's M finds the task. Results: the submitter started an M
 * (1/0), P_B's M found the task (1/0).
 *
 * <p>The state and both sides are {@link NeedSpinningModel}'s: the real {@link RunQueue} and
 * {@link SpinLock}, and models of {@code Workers.wakep} and {@code SchedLoop.findRunnable} with
 * the production fields' access modes. The twin in {@code src/broken/java} runs the same model
 * with {@code needspinning} left out (Go's wakep before 1.21) and is seen to lose the wake-up.
 */
@JCStressTest
@Outcome(id = {"1, 0", "1, 1"}, expect = Expect.ACCEPTABLE, desc = "the submitter took the idle P that P_B's M released and starts an M")
@Outcome(id = "0, 1", expect = Expect.ACCEPTABLE, desc = "P_B's M found the task")
@Outcome(id = "0, 0", expect = Expect.FORBIDDEN, desc = "lost wake-up: the task queued, a P idle, nobody coming")
@State
public class NeedSpinningJcstress extends NeedSpinningModel {
    /** The submitter: Placement.ready into runnext, then Workers.wakep, up to startm. */
    @Actor
    public void submitter(II_Result r) {
        r.r1 = readyThenWakep();
    }

    /** P_B's M, out of work: SchedLoop.findRunnable up to the release of its P. */
    @Actor
    public void mB(II_Result r) {
        r.r2 = findRunnable();
    }
}
