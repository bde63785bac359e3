package io.gmp4j.runtime.events;

import io.gmp4j.GoRuntime;
import io.gmp4j.NoUncaughtExceptions;
import io.gmp4j.TestSupport;
import io.gmp4j.SchedStats;
import io.gmp4j.runtime.Scheduler;
import jdk.jfr.Recording;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.CountDownLatch;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Under the default settings the rare decisions are recorded, one event per decision (their
 * counts equal the scheduler's own counters exactly), and the per-decision events not at all.
 */
@ExtendWith(NoUncaughtExceptions.class)
class EventDefaultsTest {
    private static final int SPAWNS = 3_000;
    private static final int BLOCKING_SYSCALLS = 5;

    @Test
    void theRareDecisionsAreRecordedOnceEachAndThePerDecisionOnesNot(@TempDir Path dir) throws Exception {
        String name = "trace-defaults";
        Path jfr = dir.resolve("defaults.jfr");
        SchedStats stats;
        try (Recording rec = new Recording(Settings.configuration(Settings.DEFAULT))) {
            rec.start();
            try (GoRuntime rt = GoRuntime.builder().maxProcs(2).name(name).build()) {
                CountDownLatch done = new CountDownLatch(SPAWNS);
                TestSupport.runInGoroutine(rt, () -> {
                    // a spawner that never parks overflows its P's ring (runqputslow); the other P steals
                    for (int i = 0; i < SPAWNS; i++) {
                        rt.go(() -> {
                            TestSupport.burn(2_000);
                            done.countDown();
                        });
                    }
                    // entersyscallblock hands the P off at once, each time
                    for (int i = 0; i < BLOCKING_SYSCALLS; i++) {
                        long token = Scheduler.of(rt).entersyscall(true);
                        Scheduler.of(rt).exitsyscall(token);
                    }
                });
                TestSupport.await(done, () -> done.getCount() + " left: " + rt.stats());
                TestSupport.awaitCondition(() -> rt.numGoroutine() == 0, () -> "goroutines left: " + rt.stats());
                Scheduler s = Scheduler.of(rt);
                rt.close(); // sysmon and the Ms stop: nothing decides after the counters are read
                stats = s.stats();
            }
            rec.stop();
            rec.dump(jfr);
        }
        Map<String, Integer> n = new HashMap<>();
        for (RecordedEvent e : RecordingFile.readAllEvents(jfr)) {
            String type = e.getEventType().getName();
            if (type.startsWith("io.gmp4j.") && !type.equals("io.gmp4j.CarrierSync") && name.equals(e.getString("runtime"))) {
                n.merge(type, 1, Integer::sum);
                if (type.equals("io.gmp4j.PHandoff")) {
                    n.merge(e.getString("reason"), 1, Integer::sum);
                }
            }
        }
        String why = n + " vs " + stats;
        assertEquals(stats.overflows(), (long) n.getOrDefault("io.gmp4j.RunqOverflow", 0), why);
        assertEquals(stats.steals(), (long) n.getOrDefault("io.gmp4j.Steal", 0), why);
        assertEquals(stats.handoffs(), (long) n.getOrDefault("io.gmp4j.PHandoff", 0), why);
        assertEquals(stats.preemptRequests(), (long) n.getOrDefault("io.gmp4j.PreemptRequest", 0), why);
        if (n.getOrDefault(HandoffEvent.STUCK, 0) == 0) {
            // each blocking syscall hands its P off, unless sysmon took that P first (a stall of 20 ms)
            assertEquals(BLOCKING_SYSCALLS, n.getOrDefault(HandoffEvent.SYSCALL_BLOCK, 0), why);
        }
        assertTrue(stats.overflows() > 0, why);
        for (String off : new String[]{"GoroutineRun", "GoroutineReady", "GoroutinePark", "GoroutineCreate", "GoroutineEnd"}) {
            assertFalse(n.containsKey("io.gmp4j." + off), () -> off + " is off by default: " + why);
        }
    }
}
