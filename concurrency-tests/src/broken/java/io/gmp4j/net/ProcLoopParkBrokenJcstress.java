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
 * Broken twin of {@code ProcLoopParkJcstress} (not shipped, run by {@code -Pbroken-twins}, must
 * FAIL): the same protocol with release stores and acquire loads of {@code state} and
 * {@code dirty}, so each side's store may be ordered after its following load (x86's store
 * buffer): the goroutine reads {@code dirty} false and the waker reads RUNNING, the forbidden
 * {@code 0, 0, 0}.
 */
@JCStressTest
@Outcome(id = "1, 0, 2", expect = Expect.ACCEPTABLE, desc = "the goroutine saw dirty and ran another turn")
@Outcome(id = "0, 1, 1", expect = Expect.ACCEPTABLE, desc = "the waker won IDLE -> QUEUED and readied it")
@Outcome(id = "0, 0, 0", expect = Expect.FORBIDDEN, desc = "lost wake-up: a task handed over, the goroutine parked for good")
@Outcome(expect = Expect.FORBIDDEN, desc = "both sides took the goroutine, or a state out of the protocol")
@State
public class ProcLoopParkBrokenJcstress {
    private static final int IDLE = 0;
    private static final int QUEUED = 1;
    private static final int RUNNING = 2;

    private final AtomicInteger state = new AtomicInteger(RUNNING);
    private final AtomicInteger dirty = new AtomicInteger();

    @Actor
    public void pollGoroutineParks(III_Result r) {
        state.setRelease(IDLE); // BROKEN: release store, no StoreLoad before the load of dirty
        if (dirty.getAcquire() != 0 && state.compareAndSet(IDLE, RUNNING)) {
            r.r1 = 1;
            return;
        }
        r.r1 = 0;
    }

    @Actor
    public void taskHandedOver(III_Result r) {
        dirty.setRelease(1); // BROKEN: release store, no StoreLoad before the load of state
        r.r2 = state.getAcquire() == IDLE && state.compareAndSet(IDLE, QUEUED) ? 1 : 0;
    }

    @Arbiter
    public void outcome(III_Result r) {
        r.r3 = state.get();
    }
}
