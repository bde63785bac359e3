package io.gmp4j.net;

import io.netty.buffer.AbstractByteBuf;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.util.ResourceLeakDetector;

import java.lang.reflect.Field;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Fails a test class on a Netty buffer leak. Netty reports a leak only after the leaked buffer
 * was collected, and only while tracking a later allocation: {@link #assertNoLeaks} forces
 * collections and allocates to drive the detector, and a listener on the ByteBuf detector
 * (reached by reflection: it is a static field of {@link AbstractByteBuf}) records each report.
 * The surefire configuration runs with {@code -Dio.netty.leakDetection.level=paranoid}.
 */
final class LeakCheck {
    private static final List<String> leaks = new CopyOnWriteArrayList<>();

    static {
        try {
            Field f = AbstractByteBuf.class.getDeclaredField("leakDetector");
            f.setAccessible(true);
            ResourceLeakDetector<?> d = (ResourceLeakDetector<?>) f.get(null);
            d.setLeakListener((type, records) -> leaks.add(type + ": " + records));
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private LeakCheck() {
    }

    /** Loads the class (installing the listener); call before the first allocation. */
    static void install() {
        assertEquals(ResourceLeakDetector.Level.PARANOID, ResourceLeakDetector.getLevel(),
                "run with -Dio.netty.leakDetection.level=paranoid (netpoll/pom.xml sets it)");
    }

    /** Forces collection, drives the detector, and fails if any leak was reported. */
    static void assertNoLeaks() {
        collect(5);
        assertTrue(leaks.isEmpty(), () -> leaks.size() + " ByteBuf leak(s):\n" + String.join("\n\n", leaks));
    }

    /** Runs {@code rounds} collections, each followed by allocations that make the detector report. */
    static void collect(int rounds) {
        for (int round = 0; round < rounds; round++) {
            System.gc();
            System.runFinalization();
            for (int i = 0; i < 64; i++) {
                ByteBuf b = ByteBufAllocator.DEFAULT.buffer(16);
                b.release();
                ByteBuf d = ByteBufAllocator.DEFAULT.directBuffer(16);
                d.release();
            }
        }
    }

    /** Takes the leaks reported so far (for the test of the check itself). */
    static List<String> take() {
        List<String> out = List.copyOf(leaks);
        leaks.removeAll(out);
        return out;
    }
}
