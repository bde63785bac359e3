package io.gmp4j.actor;

import java.util.concurrent.atomic.AtomicInteger;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * An actor's consumer going idle ({@code release}: store IDLE, re-check the mailbox, CAS back)
 * against a sender ({@code offer}, then {@code signal}: read the state, CAS IDLE to SCHEDULED).
 * The mailbox state machine runs here without a runtime: the cell's {@code resume} (which
 * would submit the actor's task) only counts. Exactly one side must take the consumer role for
 * the message: none is the lost wake-up that stalls an actor forever, two would run one actor
 * on two Ms at once. Results: how many times the role was taken (resume calls), messages left
 * in the mailbox (1: nobody consumed it, as expected here).
 *
 * <p>Checked by mutation: with {@code release} reading the mailbox before its IDLE store (the
 * naive order), quick mode reports the forbidden {@code 0, 1}.
 */
@JCStressTest
@Outcome(id = "1, 1", expect = Expect.ACCEPTABLE, desc = "exactly one side scheduled the actor")
@Outcome(id = "0, 1", expect = Expect.FORBIDDEN, desc = "lost wake-up: a message in an idle actor's mailbox")
@Outcome(expect = Expect.FORBIDDEN, desc = "scheduled twice, or the message lost")
@State
public class MailboxIdleJcstress {
    /** A cell whose consumer is the test: taking the role counts instead of running a task. */
    static final class CountingCell extends ActorCell<Object> {
        final AtomicInteger resumes = new AtomicInteger();

        CountingCell() {
            // Named: no system needed for an id. SCHEDULED: the consumer holds the role.
            super(null, null, Props.named("jcstress"), SCHEDULED);
        }

        @Override
        void start() {
        }

        @Override
        void resume() {
            resumes.incrementAndGet();
        }
    }

    private final CountingCell cell = new CountingCell();

    @Actor
    public void sender() {
        cell.mailbox.offer("msg");
        cell.signal();
    }

    @Actor
    public void consumerGoesIdle() {
        cell.release();
    }

    @Arbiter
    public void outcome(II_Result r) {
        r.r1 = cell.resumes.get();
        r.r2 = cell.mailbox.size();
    }
}
