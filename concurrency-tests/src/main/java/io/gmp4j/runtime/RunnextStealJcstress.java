package io.gmp4j.runtime;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * The owner's runnext slot against a thief allowed to take it (stealWork's last pass): the task
 * goes to exactly one of them. Results: owner got it (1/0), thief got it (1/0), still queued
 * (1/0).
 */
@JCStressTest
@Outcome(id = "1, 0, 0", expect = Expect.ACCEPTABLE, desc = "owner ran its runnext")
@Outcome(id = "0, 1, 0", expect = Expect.ACCEPTABLE, desc = "thief took runnext before the owner looked")
@Outcome(expect = Expect.FORBIDDEN, desc = "runnext lost or run twice")
@State
public class RunnextStealJcstress {
    private final RunQueue owner = new RunQueue(4);
    private final RunQueue thief = new RunQueue(4);
    private final Runnable task = () -> { };
    private final RunQueue.Got got = new RunQueue.Got();

    public RunnextStealJcstress() {
        owner.put(task, true, RunQueueFixtures.NO_OVERFLOW, new Runnable[3]);
    }

    @Actor
    public void ownerSide(III_Result r) {
        r.r1 = owner.get(got, true) == task ? 1 : 0;
    }

    @Actor
    public void thiefSide(III_Result r) {
        // victimRunning=false: no back-off, the hardest race
        r.r2 = thief.stealFrom(owner, true, false, new int[1]) == task ? 1 : 0;
    }

    @Arbiter
    public void rest(III_Result r) {
        r.r3 = RunQueueFixtures.drain(got, owner, thief);
    }
}
