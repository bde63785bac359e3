package io.gmp4j.net;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.openjdk.jcstress.annotations.Actor;
import org.openjdk.jcstress.annotations.Arbiter;
import org.openjdk.jcstress.annotations.JCStressMeta;
import org.openjdk.jcstress.annotations.JCStressTest;
import org.openjdk.jcstress.annotations.State;
import org.openjdk.jcstress.infra.results.III_Result;

/**
 * Broken twin of {@link ProcLoopParkJcstress} (not shipped, run by {@code -Pbroken-twins}, must
 * FAIL), graded by its outcomes: the same {@link ProcLoopParkModel} with release stores and
 * acquire loads of {@code state} and {@code dirty}, so each side's store may be ordered after
 * its following load (x86's store buffer): the goroutine reads {@code dirty} false and the
 * waker reads RUNNING, the forbidden {@code 0, 0, 0}.
 */
@JCStressTest
@JCStressMeta(ProcLoopParkJcstress.class)
public class ProcLoopParkBrokenJcstress {
    /** The model with both halves of the Dekker pair short of a StoreLoad. */
    @State
    public static class ReleaseAcquire extends ProcLoopParkModel {
        /** The model's {@code dirty}, for release and acquire accesses. */
        private static final VarHandle DIRTY = dirtyHandle();

        private static VarHandle dirtyHandle() {
            try {
                return MethodHandles.lookup().findVarHandle(ProcLoopParkModel.class, "dirty", boolean.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        @Override
        boolean storeIdleThenLoadDirty() {
            state.setRelease(IDLE); // BROKEN: release store, no StoreLoad before the load of dirty
            return (boolean) DIRTY.getAcquire(this);
        }

        @Override
        boolean storeDirtyThenLoadIdle() {
            DIRTY.setRelease(this, true); // BROKEN: release store, no StoreLoad before the load of state
            return state.getAcquire() == IDLE;
        }
    }

    /** The poll goroutine goes to sleep, with the broken store and load. */
    @Actor
    public void pollGoroutineParks(ReleaseAcquire s, III_Result r) {
        r.r1 = s.parkUntilWanted();
    }

    /** The hand-over, with the broken store and load. */
    @Actor
    public void taskHandedOver(ReleaseAcquire s, III_Result r) {
        r.r2 = s.want();
    }

    /** The final state. */
    @Arbiter
    public void outcome(ReleaseAcquire s, III_Result r) {
        r.r3 = s.state();
    }
}
