package io.gmp4j.bench;

import io.gmp4j.runtime.CpuAffinity;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The machine probe that {@code ./gmp4j bench} runs before and after its benchmarks. */
class MachineProbeTest {

    @Test
    void readsBothFiguresAndLeavesTheCallersAffinityAsItWas() {
        int[] before = CpuAffinity.load().allowedCpus();
        MachineProbe.Reading r = MachineProbe.read();
        assertArrayEquals(before, CpuAffinity.load().allowedCpus(),
                "the pinger runs on the calling thread and must give its CPUs back");
        // A cache line cannot cross cores and back in under a nanosecond, nor fib(20)'s 21,891
        // calls run in under a microsecond: smaller figures would mean the loops measured nothing.
        if (Runtime.getRuntime().availableProcessors() >= 2) {
            assertTrue(r.c2cNs() >= 1 && r.c2cNs() < 1_000_000, "round trip " + r.c2cNs() + " ns");
        } else {
            assertTrue(Double.isNaN(r.c2cNs()), "no round trip to time on one CPU");
        }
        assertTrue(r.stepNs() >= 1_000 && r.stepNs() < 100_000_000, "fib(20) " + r.stepNs() + " ns");
        assertTrue(r.pinned() == (CpuAffinity.load().processCpus().length >= 2),
                "pinned exactly when the process has two CPUs to pin to");
    }

    @Test
    void aChangeIsAFactorOfOnePointFiveInEitherFigure() {
        MachineProbe.Reading slow = new MachineProbe.Reading(480, 17_500, true);
        assertFalse(MachineProbe.changed(slow, new MachineProbe.Reading(440, 18_500, true)), "within one phase");
        assertTrue(MachineProbe.changed(slow, new MachineProbe.Reading(60, 17_500, true)), "the round trip moved 8x");
        assertTrue(MachineProbe.changed(slow, new MachineProbe.Reading(470, 28_000, true)), "the core slowed 1.6x");
        assertFalse(MachineProbe.changed(new MachineProbe.Reading(Double.NaN, 17_500, false),
                new MachineProbe.Reading(Double.NaN, 18_000, false)), "one CPU: no round trip to compare");
    }
}
