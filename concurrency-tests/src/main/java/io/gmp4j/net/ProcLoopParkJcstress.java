package io.gmp4j.net;

import java.util.concurrent.atomic.AtomicInteger;
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
 * <p>{@code ProcLoop} needs a Netty loop and a running scheduler, so this is a model of
 * {@code ProcLoop.parkUntilWanted} and {@code ProcLoop.want}/{@code claim}, line for line, on
 * the same fields with the same types and access modes ({@code state} an
 * {@link AtomicInteger}, {@code dirty} a volatile boolean); the turn before it has cleared
 * {@code dirty} and the goroutine is RUNNING. {@code ProcLoopAccessModesTest} in netpoll checks
 * that the production fields keep those types and modifiers. The twin in {@code src/broken/java}
 * uses release stores and acquire loads (no StoreLoad) and is seen to lose the wake-up.
 */
@JCStressTest
@Outcome(id = "1, 0, 2", expect = Expect.ACCEPTABLE, desc = "the goroutine saw dirty and ran another turn")
@Outcome(id = "0, 1, 1", expect = Expect.ACCEPTABLE, desc = "the waker won IDLE -> QUEUED and readied it")
@Outcome(id = "0, 0, 0", expect = Expect.FORBIDDEN, desc = "lost wake-up: a task handed over, the goroutine parked for good")
@Outcome(expect = Expect.FORBIDDEN, desc = "both sides took the goroutine, or a state out of the protocol")
@State
public class ProcLoopParkJcstress {
    private static final int IDLE = 0;
    private static final int QUEUED = 1;
    private static final int RUNNING = 2;

    /** ProcLoop.state: RUNNING after a turn. */
    private final AtomicInteger state = new AtomicInteger(RUNNING);
    /** ProcLoop.dirty: cleared when the turn began. */
    private volatile boolean dirty;

    /** ProcLoop.parkUntilWanted (blockWanted false: no M asked for a blocking turn). */
    @Actor
    public void pollGoroutineParks(III_Result r) {
        // "state.set(IDLE); // volatile store, then the load of dirty"
        state.set(IDLE);
        // "if ((dirty || blockWanted) && state.compareAndSet(IDLE, RUNNING)) return;"
        if (dirty && state.compareAndSet(IDLE, RUNNING)) {
            r.r1 = 1;
            return;
        }
        r.r1 = 0; // "g.park("netpoll")": returns only if a waker readied it
    }

    /** ProcLoop.want, through claim(). */
    @Actor
    public void taskHandedOver(III_Result r) {
        // "dirty = true;" (volatile store)
        dirty = true;
        // claim: "state.get() == IDLE && state.compareAndSet(IDLE, QUEUED)", then want readies g
        r.r2 = state.get() == IDLE && state.compareAndSet(IDLE, QUEUED) ? 1 : 0;
    }

    @Arbiter
    public void outcome(III_Result r) {
        r.r3 = state.get();
    }
}
