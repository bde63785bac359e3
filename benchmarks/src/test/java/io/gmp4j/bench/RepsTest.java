package io.gmp4j.bench;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The repetition plan: counts first, time floors on top, and a cap on measured repetitions. */
class RepsTest {

    @Test
    void withoutTimeFloorsTheCountsDecide() {
        Reps r = new Reps(3, 5, 0, 0);
        int warm = 0;
        int measured = 0;
        while (r.next()) {
            if (r.measuring()) {
                measured++;
            } else {
                assertEquals(0, measured, "no warm-up after the first measured repetition");
                warm++;
            }
        }
        assertEquals(3, warm);
        assertEquals(5, measured);
        assertEquals(8, r.count());
        assertFalse(r.next(), "stays finished");
    }

    @Test
    void aWarmupFloorAddsWarmupRepetitionsUntilItHasPassed() {
        long floor = 20_000_000; // 20 ms
        Reps r = new Reps(1, 2, floor, 0);
        long start = System.nanoTime();
        int warm = 0;
        while (r.next() && !r.measuring()) {
            warm++;
            busy(1_000_000);
        }
        assertTrue(System.nanoTime() - start >= floor, "the warm-up lasted the floor");
        assertTrue(warm > 1, "more than the one counted warm-up repetition: " + warm);
        int measured = 1; // the repetition that ended the loop above
        while (r.next()) {
            measured++;
        }
        assertEquals(2, measured, "no measure floor: the count decides");
    }

    @Test
    void theMeasureFloorIsCappedAtMaxMeasured() {
        Reps r = new Reps(0, 1, 0, Long.MAX_VALUE / 2);
        int measured = 0;
        while (r.next()) {
            assertTrue(r.measuring());
            measured++;
        }
        assertEquals(Reps.MAX_MEASURED, measured);
    }

    @Test
    void badPlansAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new Reps(-1, 5, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new Reps(3, 0, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new Reps(3, 5, -1, 0));
    }

    private static void busy(long nanos) {
        long end = System.nanoTime() + nanos;
        while (System.nanoTime() - end < 0) {
            Thread.onSpinWait();
        }
    }
}
