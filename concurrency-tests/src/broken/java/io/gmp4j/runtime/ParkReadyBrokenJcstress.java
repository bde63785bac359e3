package io.gmp4j.runtime;

import java.util.concurrent.locks.LockSupport;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressMeta;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Broken twin of {@link ParkReadyJcstress} (not shipped, run by {@code -Pbroken-twins}, must
 * FAIL), graded by its outcomes: the same {@link ParkReadyModel} and the same real G and
 * {@link G#ready}, with the park a non-atomic check-then-set (read RUNNING, store WAITING) in
 * place of its compareAndExchange. The park reads RUNNING, the ready's CAS leaves its permit
 * (READIED) without unparking, then the park stores WAITING over it: the readier sees WAITING
 * after its ready returned, the forbidden {@code 1, ...}.
 */
@JCStressTest
@JCStressMeta(ParkReadyJcstress.class)
public class ParkReadyBrokenJcstress {
    /** The model with G's park broken; the rest of the park as G.park does it. */
    @State
    public static class CheckThenSetPark extends ParkReadyModel {
        @Override
        void park() {
            if ((int) PARK_STATE.getVolatile(g) == G.RUNNING) { // BROKEN: check, then set
                PARK_STATE.setVolatile(g, G.WAITING);
                while (g.isWaiting()) {
                    LockSupport.park(g);
                }
            }
            PARK_STATE.setRelease(g, G.RUNNING);
        }
    }

    /** The G's own thread parks it, with the broken park. */
    @Actor
    public void parks(CheckThenSetPark s) {
        s.parkAsTheG();
    }

    /** Another thread readies the G, as in the shipped test. */
    @Actor
    public void readies(CheckThenSetPark s, II_Result r) {
        r.r1 = s.readyThenAwaitPark();
    }

    /** The G's park state after both. */
    @Arbiter
    public void after(CheckThenSetPark s, II_Result r) {
        r.r2 = s.parkState();
    }
}
