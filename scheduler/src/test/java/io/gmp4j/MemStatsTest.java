package io.gmp4j;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.*;

/** Go's runtime.GC and runtime.ReadMemStats over the JVM's management beans. */
@ExtendWith(NoUncaughtExceptions.class)
class MemStatsTest {
    private static final int CHUNK = 1 << 20;
    private static final int CHUNKS = 64;

    /** Allocates 64 MiB, most of it garbage at once; returns something that depends on all of it. */
    private static long allocate() {
        List<byte[]> keep = new ArrayList<>();
        long sum = 0;
        for (int i = 0; i < CHUNKS; i++) {
            byte[] b = new byte[CHUNK];
            b[i] = (byte) i;
            sum += b[i];
            if (i % 16 == 0) {
                keep.add(b);
            }
        }
        return sum + keep.size();
    }

    private static void checkSane(MemStats m) {
        assertTrue(m.heapAlloc() > 0, m::toString);
        assertTrue(m.heapSys() >= m.heapAlloc(), () -> "committed >= used: " + m);
        assertTrue(m.numGC() >= 0 && m.pauseTotalNs() >= 0, m::toString);
        assertTrue(m.totalAlloc() == -1 || m.totalAlloc() >= m.heapAlloc() / 2, m::toString);
    }

    @Test
    void gcCompletesACycleAndTheFiguresAreSane() {
        MemStats before = Go.readMemStats();
        checkSane(before);
        long got = allocate();
        assertTrue(got >= 0);
        Go.gc();
        MemStats after = Go.readMemStats();
        System.out.println("memstats before " + before + " after " + after);
        checkSane(after);
        assertTrue(after.numGC() > before.numGC(), () -> "gc() returns after a completed cycle: " + before + " -> " + after);
        assertTrue(after.pauseTotalNs() >= before.pauseTotalNs(), () -> before + " -> " + after);
        if (before.totalAlloc() != -1) {
            assertTrue(after.totalAlloc() - before.totalAlloc() >= (long) CHUNK * CHUNKS / 2,
                    () -> "64 MiB allocated show in totalAlloc: " + before + " -> " + after);
        }
    }

    /** From a goroutine, gc() runs as a syscall: the goroutine resumes on its runtime afterwards. */
    @Test
    void gcFromAGoroutine() {
        try (GoRuntime rt = GoRuntime.builder().maxProcs(2).name("memstats-gc").build()) {
            AtomicReference<MemStats[]> seen = new AtomicReference<>();
            TestSupport.runInGoroutine(rt, () -> {
                MemStats a = Go.readMemStats();
                allocate();
                Go.gc();
                MemStats b = Go.readMemStats();
                assertSame(rt, GoRuntime.current(), "still a goroutine of its runtime");
                seen.set(new MemStats[] {a, b});
            });
            MemStats[] ab = seen.get();
            assertTrue(ab[1].numGC() > ab[0].numGC(), () -> ab[0] + " -> " + ab[1]);
        }
    }
}
