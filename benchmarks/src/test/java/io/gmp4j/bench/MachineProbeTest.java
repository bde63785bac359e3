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
        // A cache line cannot cross cores and back in under a nanosecond, nor a dependent
        // multiply take under a tenth of one: smaller figures would mean the loops measured nothing.
        if (Runtime.getRuntime().availableProcessors() >= 2) {
            assertTrue(r.c2cNs() >= 1 && r.c2cNs() < 1_000_000, "round trip " + r.c2cNs() + " ns");
        } else {
            assertTrue(Double.isNaN(r.c2cNs()), "no round trip to time on one CPU");
        }
        assertTrue(r.stepNs() >= 0.1 && r.stepNs() < 1_000, "one step " + r.stepNs() + " ns");
        assertTrue(r.pinned() == (CpuAffinity.load().processCpus().length >= 2),
                "pinned exactly when the process has two CPUs to pin to");
    }

    @Test
    void aChangeIsAFactorOfOnePointFiveInEitherFigure() {
        MachineProbe.Reading slow = new MachineProbe.Reading(480, 1.6, true);
        assertFalse(MachineProbe.changed(slow, new MachineProbe.Reading(440, 1.7, true)), "within one phase");
        assertTrue(MachineProbe.changed(slow, new MachineProbe.Reading(60, 1.6, true)), "the round trip moved 8x");
        assertTrue(MachineProbe.changed(slow, new MachineProbe.Reading(470, 2.6, true)), "the core slowed 1.6x");
        assertFalse(MachineProbe.changed(new MachineProbe.Reading(Double.NaN, 1.6, false),
                new MachineProbe.Reading(Double.NaN, 1.65, false)), "one CPU: no round trip to compare");
    }
}
