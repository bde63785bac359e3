package io.gmp4j.chan.lin;

import io.gmp4j.TestSupport;
import io.gmp4j.chan.Chan;
import io.gmp4j.chan.ChannelClosedException;
import io.gmp4j.chan.Recv;
import kotlin.Unit;
import kotlin.reflect.jvm.ReflectJvmMapping;
import org.jetbrains.lincheck.datastructures.DSLThreadScenario;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.ModelCheckingOptions;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.StressOptions;
import org.junit.jupiter.api.Test;

/**
 * Lincheck (model checking and stress) on the non-blocking operations of a buffered channel:
 * every concurrent execution of trySend, tryRecv, close and len must match some sequential
 * order of the same calls on a channel used by one thread (Lincheck runs this class
 * sequentially as the specification). Guards the lock-free fast paths of trySend/tryRecv
 * (full/empty read without the lock, the "empty, closed, still empty" check) and len.
 *
 * <p>Blocking send/recv cannot be checked by Lincheck 3.7 from Java: its sequential run of a
 * scenario such as {@code [recv()]} on an empty channel parks forever, and it reports "The
 * execution has hung ... All unfinished threads are in livelock due to non-terminating loops"
 * (the park loop of {@code Waiter.park}); Lincheck's dual-data-structure support covers only
 * Kotlin suspending functions. {@link ChanLinearizabilityTest} checks them with our own
 * history checker instead.
 */
@Param(name = "v", gen = IntGen.class, conf = "1:3")
public class ChanLincheckTest {
    private final Chan<Integer> ch = new Chan<>(2);

    @Operation
    public String trySend(@Param(name = "v") int v) {
        try {
            return ch.trySend(v) ? "sent" : "full";
        } catch (ChannelClosedException e) {
            return "panic";
        }
    }

    @Operation
    public String tryRecv() {
        Recv<Integer> r = ch.tryRecv();
        if (r == null) {
            return "empty";
        }
        return r.ok() ? "got " + r.value() : "closed";
    }

    @Operation
    public String close() {
        try {
            ch.close();
            return "closed";
        } catch (ChannelClosedException e) {
            return "panic";
        }
    }

    @Operation
    public int len() {
        return ch.len();
    }

    /**
     * Model checking explores interleavings of the instrumented code. Besides random scenarios
     * it always runs the scenarios that aim at the lock-free fast paths: a tryRecv that saw the
     * channel empty racing a trySend and a close ("empty, closed, still empty"), and a trySend
     * that saw it full racing a receive. Lincheck's first use costs 15-20 s (it instruments
     * the loaded classes), hence few random scenarios in short mode.
     */
    @Test
    void modelChecking() {
        new ModelCheckingOptions()
                .iterations(TestSupport.stress(30, 2))
                .invocationsPerIteration(TestSupport.stress(1_000, 200))
                .threads(3)
                .actorsPerThread(3)
                .addCustomScenario(b -> {
                    b.parallel(p -> {
                        p.thread(t -> actors(t, "tryRecv"));
                        p.thread(t -> actors(t, "trySend", 1, "close"));
                        return Unit.INSTANCE;
                    });
                    return Unit.INSTANCE;
                })
                .addCustomScenario(b -> {
                    b.parallel(p -> {
                        p.thread(t -> actors(t, "tryRecv", "len"));
                        p.thread(t -> actors(t, "trySend", 1));
                        p.thread(t -> actors(t, "close"));
                        return Unit.INSTANCE;
                    });
                    return Unit.INSTANCE;
                })
                .addCustomScenario(b -> {
                    b.initial(t -> actors(t, "trySend", 1, "trySend", 2));
                    b.parallel(p -> {
                        p.thread(t -> actors(t, "trySend", 3));
                        p.thread(t -> actors(t, "tryRecv", "close"));
                        return Unit.INSTANCE;
                    });
                    return Unit.INSTANCE;
                })
                .check(this.getClass());
    }

    /** Adds the operations named in {@code spec} (each trySend followed by its argument). */
    private static Unit actors(DSLThreadScenario t, Object... spec) {
        for (int i = 0; i < spec.length; i++) {
            String name = (String) spec[i];
            try {
                if (name.equals("trySend")) {
                    t.actor(ReflectJvmMapping.getKotlinFunction(ChanLincheckTest.class.getMethod(name, int.class)), spec[++i]);
                } else {
                    t.actor(ReflectJvmMapping.getKotlinFunction(ChanLincheckTest.class.getMethod(name)));
                }
            } catch (NoSuchMethodException e) {
                throw new AssertionError(e);
            }
        }
        return Unit.INSTANCE;
    }

    @Test
    void stress() {
        new StressOptions()
                .iterations(TestSupport.stress(50, 5))
                .invocationsPerIteration(TestSupport.stress(2_000, 200))
                .threads(3)
                .actorsPerThread(3)
                .check(this.getClass());
    }
}
