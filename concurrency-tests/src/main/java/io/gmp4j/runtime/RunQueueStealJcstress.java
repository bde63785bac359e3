package io.gmp4j.runtime;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * The ring's owner puts two tasks and takes one while a thief steals half: every task is
 * consumed exactly once (Go's runqput/runqget against runqgrab). Results: the id the owner got,
 * the id the thief got, and the id left in the ring (0 for none); ids are 1 and 2.
 */
@JCStressTest
@Outcome(id = "1, 0, 2", expect = Expect.ACCEPTABLE, desc = "thief came first and found nothing")
@Outcome(id = "2, 1, 0", expect = Expect.ACCEPTABLE, desc = "thief stole the head; owner took the next")
@Outcome(id = "1, 2, 0", expect = Expect.ACCEPTABLE, desc = "owner took the head; thief stole the rest")
@Outcome(expect = Expect.FORBIDDEN, desc = "a task lost or seen twice")
@State
public class RunQueueStealJcstress {
    private static final class Task implements Runnable {
        final int id;

        Task(int id) {
            this.id = id;
        }

        @Override
        public void run() {
        }
    }

    private final RunQueue owner = new RunQueue(4);
    private final RunQueue thief = new RunQueue(4);
    private final Runnable[] scratch = new Runnable[3];
    private final RunQueue.Got got = new RunQueue.Got();

    @Actor
    public void ownerSide(III_Result r) {
        owner.put(new Task(1), false, RunQueueFixtures.NO_OVERFLOW, scratch);
        owner.put(new Task(2), false, RunQueueFixtures.NO_OVERFLOW, scratch);
        Runnable t = owner.get(got, true);
        r.r1 = t == null ? 0 : ((Task) t).id;
    }

    @Actor
    public void thiefSide(III_Result r) {
        Runnable t = thief.stealFrom(owner, false, true, new int[1]);
        r.r2 = t == null ? 0 : ((Task) t).id;
    }

    @Arbiter
    public void rest(III_Result r) {
        Runnable t = owner.get(got, true);
        r.r3 = t == null ? 0 : ((Task) t).id;
        if (owner.get(got, true) != null || thief.get(got, true) != null) {
            r.r3 = -1; // more left than possible: forbidden
        }
    }
}
