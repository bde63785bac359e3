package io.gmp4j.runtime;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressMeta;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Broken twin of {@link NeedSpinningJcstress} (not shipped, run by {@code -Pbroken-twins}, must
 * FAIL), graded by its outcomes: the same {@link NeedSpinningModel} with the submitter's
 * {@code wakep} that finds no idle P just dropping its {@code nmspinning} after the unlock, with
 * no {@code needspinning} (Go's startm before 1.21). P_B's M, having read that 1 and skipped
 * spinning, releases its P without a re-check while the other M holds P_C: the forbidden
 * {@code 0, 0}.
 */
@JCStressTest
@JCStressMeta(NeedSpinningJcstress.class)
public class NeedSpinningBrokenJcstress {
    /** The model with wakep's hand-over left out. */
    @State
    public static class NoNeedSpinning extends NeedSpinningModel {
        @Override
        int takeIdlePOrHandOver() {
            lock.lock();
            try {
                if (pidleget()) {
                    return 1;
                }
            } finally {
                lock.unlock();
            }
            nmspinning.decrementAndGet(); // BROKEN: the 1 dropped with no needspinning set
            return 0;
        }
    }

    /** The submitter, as in the shipped test but for its critical section. */
    @Actor
    public void submitter(NoNeedSpinning s, II_Result r) {
        r.r1 = s.readyThenWakep();
    }

    /** P_B's M, as in the shipped test. */
    @Actor
    public void mB(NoNeedSpinning s, II_Result r) {
        r.r2 = s.findRunnable();
    }
}
