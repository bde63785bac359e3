package io.gmp4j.runtime;

import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The fields that concurrency-tests' jcstress models copy (SpinningDropJcstress models
 * {@code wakep} against findRunnable's spinning drop) keep the types and volatility the models
 * were written for; a change here means the model must change with it.
 */
class ModelledFieldsTest {
    private static Field field(Class<?> c, String name) throws NoSuchFieldException {
        return c.getDeclaredField(name);
    }

    @Test
    void nmspinningIsAFinalAtomicInteger() throws Exception {
        Field f = field(SchedulerState.class, "nmspinning");
        assertEquals(AtomicInteger.class, f.getType());
        assertTrue(Modifier.isFinal(f.getModifiers()));
    }

    @Test
    void npidleAndNeedspinningAreVolatile() throws Exception {
        Field npidle = field(SchedulerState.class, "npidle");
        assertEquals(int.class, npidle.getType());
        assertTrue(Modifier.isVolatile(npidle.getModifiers()));
        Field need = field(SchedulerState.class, "needspinning");
        assertEquals(boolean.class, need.getType());
        assertTrue(Modifier.isVolatile(need.getModifiers()));
    }

    @Test
    void parkStateIsAVolatileInt() throws Exception {
        Field f = field(G.class, "parkState");
        assertEquals(int.class, f.getType());
        assertTrue(Modifier.isVolatile(f.getModifiers()));
    }
}
