package io.gmp4j;

import io.gmp4j.runtime.CpuAffinity;
import io.gmp4j.runtime.spi.NetpollHost;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The opt-in pinned mode: while an M holds P i it runs only on the i-th CPU the process may use,
 * read back from the kernel inside the goroutines it carries.
 */
@ExtendWith(NoUncaughtExceptions.class)
class PinCarriersTest {
    private static final int GOROUTINES = 4;
    /** Samples per goroutine at most; each stops early once every P has been seen. */
    private static final int MAX_SAMPLES = 200_000;

    /** What the goroutines saw: samples whose carrier mask was not its P's CPU, and which Ps ran. */
    private record Seen(int samples, int wrong, String firstWrong, int psSeen) {
    }

    /**
     * Runs goroutines on {@code rt} that, between yields, read their P and their carrier's
     * affinity mask. Between the two reads the goroutine cannot leave its M, nor the M its P
     * (no park, no system call), so each sample pairs a P with the mask of the M holding it.
     */
    private static Seen sample(GoRuntime rt, int[] expectedCpuOfP) {
        NetpollHost host = FakeNetpoll.attach(rt).host; // its currentPid says which P a goroutine is on
        CpuAffinity affinity = CpuAffinity.load();
        int allPs = (1 << rt.gomaxprocs()) - 1;
        AtomicInteger psSeen = new AtomicInteger();
        AtomicInteger samples = new AtomicInteger();
        AtomicInteger wrong = new AtomicInteger();
        AtomicReference<String> firstWrong = new AtomicReference<>();
        CountDownLatch done = new CountDownLatch(GOROUTINES);
        for (int g = 0; g < GOROUTINES; g++) {
            rt.go(() -> {
                for (int i = 0; i < MAX_SAMPLES && psSeen.get() != allPs; i++) {
                    int pid = host.currentPid();
                    int[] mask = affinity.allowedCpus();
                    samples.incrementAndGet();
                    psSeen.getAndUpdate(bits -> bits | 1 << pid);
                    int[] expected = expectedCpuOfP == null ? null : new int[] {expectedCpuOfP[pid]};
                    if (expected != null && !Arrays.equals(expected, mask)) {
                        wrong.incrementAndGet();
                        firstWrong.compareAndSet(null, "P" + pid + " ran on " + Arrays.toString(mask)
                                + ", expected " + Arrays.toString(expected));
                    }
                    Go.gosched();
                }
                done.countDown();
            });
        }
        TestSupport.await(done, rt::toString);
        return new Seen(samples.get(), wrong.get(), firstWrong.get(), psSeen.get());
    }

    @Test
    void eachPsCarrierRunsOnlyOnThatPsCpu() {
        int[] allowed = CpuAffinity.load().processCpus();
        try (GoRuntime rt = GoRuntime.builder().maxProcs(2).pinCarriers(true).name("pinned").build()) {
            int[] cpuOfP = {allowed[0], allowed[1 % allowed.length]};
            Seen seen = sample(rt, cpuOfP);
            SchedStats s = rt.stats();
            System.out.println("pinned: " + seen + " " + s);
            assertEquals(0, seen.wrong(), seen.firstWrong());
            assertEquals(3, seen.psSeen(), () -> "both Ps ran goroutines: " + seen);
            assertArrayEquals(cpuOfP, s.pinnedCpus());
            assertTrue(s.carrierPins() >= 2, () -> "each M pinned itself once at least: " + s);
        }
    }

    /** After GOMAXPROCS changes, P i still runs on the (i mod n)-th CPU of the process, new Ps included. */
    @Test
    void resizedPsKeepTheirCpus() {
        int[] allowed = CpuAffinity.load().processCpus();
        try (GoRuntime rt = GoRuntime.builder().maxProcs(2).pinCarriers(true).name("pinned-resize").build()) {
            assertEquals(2, rt.gomaxprocs(4));
            int[] cpuOf4 = new int[4];
            for (int i = 0; i < 4; i++) {
                cpuOf4[i] = allowed[i % allowed.length];
            }
            Seen grown = sample(rt, cpuOf4);
            assertEquals(0, grown.wrong(), grown.firstWrong());
            assertEquals(15, grown.psSeen(), () -> "all four Ps ran goroutines: " + grown);
            assertArrayEquals(cpuOf4, rt.stats().pinnedCpus());
            assertEquals(4, rt.gomaxprocs(3));
            int[] cpuOf3 = java.util.Arrays.copyOf(cpuOf4, 3);
            Seen shrunk = sample(rt, cpuOf3);
            assertEquals(0, shrunk.wrong(), shrunk.firstWrong());
            assertEquals(7, shrunk.psSeen(), () -> "the three Ps ran goroutines: " + shrunk);
            assertArrayEquals(cpuOf3, rt.stats().pinnedCpus());
        }
    }

    @Test
    void aRuntimeBuiltInsideAPinnedGoroutineStillMapsOntoEveryCpuOfTheProcess() {
        int[] process = CpuAffinity.load().processCpus();
        int[] cpuOfP = {process[0], process[1 % process.length]};
        AtomicReference<Seen> seen = new AtomicReference<>();
        try (GoRuntime outer = GoRuntime.builder().maxProcs(1).pinCarriers(true).name("pinned-outer").build()) {
            TestSupport.runInGoroutine(outer, () -> {
                // This M runs on process[0] only; threads it starts inherit that mask.
                try (GoRuntime inner = GoRuntime.builder().maxProcs(2).pinCarriers(true).name("pinned-inner").build()) {
                    assertArrayEquals(cpuOfP, inner.stats().pinnedCpus());
                    seen.set(sample(inner, cpuOfP));
                }
            });
        }
        assertEquals(0, seen.get().wrong(), seen.get().firstWrong());
        assertEquals(3, seen.get().psSeen(), () -> "both inner Ps ran goroutines: " + seen.get());
    }

    /** Run in a child JVM under {@code taskset}: prints the pinned runtime's CPU of each P. */
    public static final class TasksetChild {
        public static void main(String[] args) {
            try (GoRuntime rt = GoRuntime.builder().maxProcs(3).pinCarriers(true).build()) {
                System.out.println("pinnedCpus=" + Arrays.toString(rt.stats().pinnedCpus()));
            }
        }
    }

    @Test
    void psMapOntoTheCpusTasksetAllows() throws IOException, InterruptedException {
        int[] process = CpuAffinity.load().processCpus();
        int only = process[process.length - 1];
        TestSupport.ChildRun run = TestSupport.runChildJvm(List.of("taskset", "-c", Integer.toString(only)),
                List.of("--add-opens", "java.base/java.lang=ALL-UNNAMED", "--enable-native-access=ALL-UNNAMED"),
                TasksetChild.class);
        assertEquals(0, run.exit(), run.output());
        assertTrue(run.output().contains("pinnedCpus=[" + only + ", " + only + ", " + only + "]"),
                "three Ps wrap onto the one CPU taskset allows: " + run.output());
    }

    @Test
    void offByDefaultCarriersKeepTheProcessMask() {
        int[] allowed = CpuAffinity.load().processCpus();
        try (GoRuntime rt = GoRuntime.builder().maxProcs(2).name("unpinned").build()) {
            AtomicReference<int[]> mask = new AtomicReference<>();
            CountDownLatch done = new CountDownLatch(1);
            rt.go(() -> {
                mask.set(CpuAffinity.load().allowedCpus());
                done.countDown();
            });
            TestSupport.await(done, rt::toString);
            assertArrayEquals(allowed, mask.get());
            assertEquals(0, rt.stats().pinnedCpus().length);
            assertEquals(0, rt.stats().carrierPins());
        }
    }

    @Test
    void badPropertyValueFailsClearly() {
        TestSupport.withProperty("gmp4j.pincarriers", "yes", () -> {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> GoRuntime.builder().maxProcs(1).build());
            assertTrue(e.getMessage().contains("-Dgmp4j.pincarriers must be true or false, got 'yes'"), e.getMessage());
        });
        TestSupport.withProperty("gmp4j.pincarriers", "true", () -> {
            try (GoRuntime rt = GoRuntime.builder().maxProcs(1).name("pinned-by-property").build()) {
                assertEquals(1, rt.stats().pinnedCpus().length, "the property turns pinning on");
            }
        });
    }

    /** Run in a child JVM without {@code --enable-native-access}. */
    public static final class Child {
        public static void main(String[] args) {
            TestSupport.childMain(() -> GoRuntime.builder().maxProcs(1).pinCarriers(true).build().close());
        }
    }

    @Test
    void withoutNativeAccessTheErrorNamesTheFlag() throws IOException, InterruptedException {
        TestSupport.ChildRun run = TestSupport.runChildJvm(List.of(),
                List.of("--add-opens", "java.base/java.lang=ALL-UNNAMED"), Child.class);
        assertEquals(3, run.exit(), run.output());
        assertTrue(run.output().contains("--enable-native-access=ALL-UNNAMED"), run.output());
    }
}
