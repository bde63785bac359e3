package io.gmp4j.runtime;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * The submission/spinning Dekker pair of {@link Scheduler} (proc.go's "delicate dance"): a
 * goroutine readies a task into its P's runnext and calls {@code wakep}, while the only
 * spinning M, having found nothing, releases its P, drops {@code nmspinning} and re-checks the
 * run queues. Either the submitter sees no spinning M and starts one, or the M leaving spinning
 * sees the task; neither is the lost wake-up (the task waits in a queue while an idle P and an
 * idle M exist). Results: the submitter's wakep got past its checks to start an M (1/0), the
 * dropping M found the task (1/0).
 *
 * <p>The state and both sides are {@link SpinningDropModel}'s: the real {@link RunQueue} and
 * models of the named production code, line for line, with the production fields' access
 * modes. The twin in {@code src/broken/java} runs the same model with the drop of
 * {@code nmspinning} as a release-only store (no StoreLoad) and is seen to lose the wake-up.
 */
@JCStressTest
@Outcome(id = "1, 0", expect = Expect.ACCEPTABLE, desc = "submitter saw the P idle and no spinning M: it starts one")
@Outcome(id = "0, 1", expect = Expect.ACCEPTABLE, desc = "submitter trusted the spinning M, which saw the task")
@Outcome(id = "1, 1", expect = Expect.ACCEPTABLE, desc = "both: a spare M starts and finds nothing (allowed)")
@Outcome(id = "0, 0", expect = Expect.FORBIDDEN, desc = "lost wake-up: the task queued, nobody coming")
@State
public class SpinningDropJcstress extends SpinningDropModel {
    /** The submitter: Scheduler.execute (READY_NEXT) then Scheduler.wakep. */
    @Actor
    public void submitter(II_Result r) {
        r.r1 = readyThenWakep();
    }

    /** The spinning M with nothing found: releases its P, drops nmspinning, re-checks. */
    @Actor
    public void spinningMDrops(II_Result r) {
        r.r2 = releasePThenRecheck();
    }
}
