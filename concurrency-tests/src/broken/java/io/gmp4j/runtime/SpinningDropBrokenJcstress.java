package io.gmp4j.runtime;

import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.JCStressMeta;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.II_Result;

/**
 * Broken twin of {@link SpinningDropJcstress} (not shipped, run by {@code -Pbroken-twins}, must
 * FAIL), graded by its outcomes: the same {@link SpinningDropModel} with the spinning M's drop
 * of {@code nmspinning} as a release-only store ({@code lazySet}) instead of the atomic
 * decrement, so nothing orders that store before its re-check of the run queue. On x86 the
 * store waits in the store buffer while the re-check reads the queue empty, and the submitter
 * meanwhile reads the old count of 1: the forbidden {@code 0, 0}.
 */
@JCStressTest
@JCStressMeta(SpinningDropJcstress.class)
public class SpinningDropBrokenJcstress {
    /** The model with the drop broken. */
    @State
    public static class ReleaseStoreDrop extends SpinningDropModel {
        @Override
        void dropSpinning() {
            nmspinning.lazySet(nmspinning.get() - 1); // BROKEN: release store, no StoreLoad
        }
    }

    /** The submitter, as in the shipped test. */
    @Actor
    public void submitter(ReleaseStoreDrop s, II_Result r) {
        r.r1 = s.readyThenWakep();
    }

    /** The spinning M, as in the shipped test but for its drop. */
    @Actor
    public void spinningMDrops(ReleaseStoreDrop s, II_Result r) {
        r.r2 = s.releasePThenRecheck();
    }
}
