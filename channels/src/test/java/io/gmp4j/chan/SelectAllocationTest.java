package io.gmp4j.chan;

import com.sun.management.ThreadMXBean;
import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/**
 * A select reused in a hot loop allocates (almost) nothing per round: the promise made to users
 * who put a select in their inner loop. Measured with the JVM's per-thread allocation counter on
 * a platform thread, over rounds where a case is always ready (no parking).
 */
class SelectAllocationTest {
    @Test
    void reusedSelectAllocatesNothingPerRound() {
        ThreadMXBean mx = (ThreadMXBean) ManagementFactory.getThreadMXBean();
        assertTrue(mx.isThreadAllocatedMemorySupported());
        Chan<Integer> a = new Chan<>(64);
        Chan<Integer> b = new Chan<>(64);
        Chan<Integer> never = new Chan<>();
        Integer one = 1;
        Select s = new Select();
        long sum = 0;
        int rounds = 200_000;
        // Warm up (JIT, array growth), then measure the same loop.
        for (int pass = 0; pass < 2; pass++) {
            long before = mx.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < rounds; i++) {
                a.trySend(one);
                b.trySend(one);
                for (int k = 0; k < 2; k++) {
                    s.reset();
                    s.recv(a);
                    s.recv(b);
                    s.recv(never);
                    s.select();
                    sum += s.<Integer>value();
                }
            }
            long perRound = (mx.getCurrentThreadAllocatedBytes() - before) / rounds;
            if (pass == 1) {
                assertTrue(perRound < 16, "a reused select allocated " + perRound + " bytes per round");
            }
        }
        assertEquals(4L * rounds, sum, "every value received once");
    }
}
