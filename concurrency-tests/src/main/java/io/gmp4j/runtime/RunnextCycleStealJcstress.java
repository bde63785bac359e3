package io.gmp4j.runtime;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * A thief that backs off before taking a running owner's runnext, while the owner runs that
 * task and readies the same task again (the ping-pong pair cycling one task object through
 * runnext). After its back-off the thief takes whatever runnext holds, as Go's runqgrab does,
 * so it may take the second readying; each of the two readyings must still run exactly once.
 * Results: the owner took the first (1/0), the thief took one (1/0), left queued (0..2).
 */
@JCStressTest
@Outcome(id = "1, 1, 0", expect = Expect.ACCEPTABLE, desc = "owner ran it, thief took the re-readied task")
@Outcome(id = "1, 0, 1", expect = Expect.ACCEPTABLE, desc = "owner ran it, the re-readied task is still queued")
@Outcome(id = "0, 1, 1", expect = Expect.ACCEPTABLE, desc = "thief took it first, the re-readied task is queued")
@Outcome(expect = Expect.FORBIDDEN, desc = "a readying lost or run twice")
@State
public class RunnextCycleStealJcstress {
    private final RunQueue owner = new RunQueue(4);
    private final RunQueue thief = new RunQueue(4);
    private final Runnable task = () -> { };
    private final RunQueue.Got got = new RunQueue.Got();

    public RunnextCycleStealJcstress() {
        owner.put(task, true, RunQueueFixtures.NO_OVERFLOW, new Runnable[3]);
    }

    @Actor
    public void ownerSide(III_Result r) {
        boolean ran = owner.get(got, true) == task;
        r.r1 = ran ? 1 : 0;
        // the task ran (or was stolen) and is readied again into runnext
        owner.put(task, true, RunQueueFixtures.NO_OVERFLOW, new Runnable[3]);
    }

    @Actor
    public void thiefSide(III_Result r) {
        // victimRunning=true: the back-off path, then whatever runnext holds
        r.r2 = thief.stealFrom(owner, true, true, new int[1]) == task ? 1 : 0;
    }

    @Arbiter
    public void rest(III_Result r) {
        r.r3 = RunQueueFixtures.drain(got, owner, thief);
    }
}
