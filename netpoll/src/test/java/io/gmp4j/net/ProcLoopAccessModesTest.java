package io.gmp4j.net;

import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The fields of {@link ProcLoop}'s park/hand-over Dekker pair, which concurrency-tests'
 * ProcLoopParkJcstress models, keep the types and volatility the model was written for
 * ({@code state} an AtomicInteger, {@code dirty} a volatile boolean); a change here means the
 * model must change with it.
 */
class ProcLoopAccessModesTest {
    @Test
    void stateIsAFinalAtomicIntegerAndDirtyIsVolatile() throws Exception {
        Field state = ProcLoop.class.getDeclaredField("state");
        assertEquals(AtomicInteger.class, state.getType());
        assertTrue(Modifier.isFinal(state.getModifiers()));
        Field dirty = ProcLoop.class.getDeclaredField("dirty");
        assertEquals(boolean.class, dirty.getType());
        assertTrue(Modifier.isVolatile(dirty.getModifiers()));
    }
}
