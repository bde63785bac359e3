package io.gmp4j.runtime;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.Expect;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.Outcome;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Broken twin of {@code ParkReadyJcstress} (not shipped, run by {@code -Pbroken-twins}, must
 * FAIL): G's park with a non-atomic check-then-set (read RUNNING, store WAITING) in place of
 * its compareAndExchange, ready as in production, in the same harness. The park reads RUNNING,
 * the ready's CAS leaves its permit (READIED) without unparking, then the park stores WAITING
 * over it: the readier sees WAITING after its ready returned, the forbidden {@code 1, ...}.
 */
@JCStressTest
@Outcome(id = "0, 0", expect = Expect.ACCEPTABLE, desc = "the park returned, the readiness consumed")
@Outcome(id = "1, .*", expect = Expect.FORBIDDEN, desc = "lost wake-up: WAITING after the ready returned")
@Outcome(expect = Expect.FORBIDDEN, desc = "the park returned without consuming the readiness (READIED left)")
@State
public class ParkReadyBrokenJcstress {
    private static final int RUNNING = 0;
    private static final int READIED = 1;
    private static final int WAITING = 2;

    private static final VarHandle PARK_STATE;

    static {
        try {
            PARK_STATE = MethodHandles.lookup().findVarHandle(ParkReadyBrokenJcstress.class, "parkState", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private volatile int parkState;
    private volatile Thread thread;
    private volatile boolean parkReturned;

    private void park() {
        if (parkState == RUNNING) { // BROKEN: check, then set, not one compareAndExchange
            parkState = WAITING;
            while (parkState == WAITING) {
                LockSupport.park(this);
            }
        }
        parkState = RUNNING;
    }

    /** G.ready as in production: a CAS loop, unparking only a G that was WAITING. */
    private void ready() {
        while (true) {
            int s = parkState;
            if (s == READIED) {
                return;
            }
            if (PARK_STATE.compareAndSet(this, s, READIED)) {
                if (s == WAITING) {
                    LockSupport.unpark(thread);
                }
                return;
            }
        }
    }

    @Actor
    public void parks() {
        thread = Thread.currentThread();
        park();
        parkReturned = true;
    }

    @Actor
    public void readies(II_Result r) {
        ready();
        while (!parkReturned) {
            if (parkState == WAITING) {
                r.r1 = 1;
                ready();
                return;
            }
            Thread.onSpinWait();
        }
    }

    @Arbiter
    public void after(II_Result r) {
        r.r2 = parkState;
    }
}
