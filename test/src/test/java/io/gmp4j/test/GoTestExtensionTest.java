package io.gmp4j.test;

import io.gmp4j.runtime.Scheduler;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;

import io.gmp4j.DeadlockError;
import io.gmp4j.Go;
import io.gmp4j.GoRuntime;
import io.gmp4j.chan.Chan;
import io.gmp4j.runtime.G;
import io.gmp4j.time.Time;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.platform.testkit.engine.EngineTestKit;
import org.junit.platform.testkit.engine.Event;
import org.junit.platform.testkit.engine.EventType;
import org.junit.platform.testkit.engine.Events;

/**
 * The {@link GoTest} extension, run through JUnit's platform testkit: each failure of a sample
 * test is reported as a failure of that test, with its kind and dump; a passing sample passes.
 * The samples are static nested classes, which surefire does not run by itself.
 */
class GoTestExtensionTest {

    static final AtomicLong seenSeed = new AtomicLong();
    static final AtomicLong seenProcs = new AtomicLong();

    static class Passing {
        @GoTest(procs = 3, seed = 42)
        void runsAsTheMainGoroutineOfAFreshRuntime() {
            assertTrue(G.current() != null, "the body is not a goroutine");
            seenProcs.set(Go.gomaxprocs());
            seenSeed.set(Scheduler.of(GoRuntime.current()).seed().orElseThrow());
            Chan<Integer> ch = new Chan<>();
            Go.go(() -> {
                ch.send(41);
                ch.close();
            });
            assertEquals(41, ch.recv());
            assertEquals(null, ch.recv());
        }

        /** A goroutine that ends within the leak grace after the body returned is no leak. */
        @GoTest
        void leavesAGoroutineThatEndsSoonAfter() {
            Go.go(() -> Time.sleep(Duration.ofMillis(200)));
        }

        @GoTest(bubble = true)
        void inABubble() {
            Time.sleep(Duration.ofHours(3));
            assertEquals(SyncTest.EPOCH.plus(Duration.ofHours(3)), Time.now());
        }
    }

    static class Leaking {
        @GoTest(procs = 2)
        void leavesAGoroutineBlocked() {
            Chan<Integer> never = new Chan<>();
            Go.go(() -> never.recv());
        }
    }

    static class Deadlocking {
        @GoTest(procs = 2)
        void waitsForAReceiverThatNeverComes() {
            new Chan<Integer>().send(1);
        }
    }

    static class Panicking {
        @GoTest(procs = 2)
        void aGoroutineThrows() {
            Go.go(() -> {
                throw new IllegalStateException("goroutine failed");
            });
            new Chan<Integer>().recv(); // ended by the panic, not by the deadlock
        }
    }

    static class TimingOut {
        @GoTest(procs = 2, timeoutMillis = 300)
        void waitsOnATimerThatIsTooLate() {
            // A pending timer keeps the deadlock detector quiet: only the timeout ends this.
            Time.sleep(Duration.ofMinutes(10));
        }
    }

    @GoTest
    static class ClassLevel {
        @Test
        void isAGoroutineToo() {
            assertTrue(G.current() != null);
        }
    }

    static final java.util.concurrent.atomic.AtomicReference<List<String>> lastTrace = new java.util.concurrent.atomic.AtomicReference<>();

    /** A schedule-dependent test: its trace is what SeededScheduleTest traces, from the extension's seed. */
    static class Replayed {
        @GoTest(procs = 1)
        void recordsItsInterleaving() {
            seenSeed.set(Scheduler.of(GoRuntime.current()).seed().orElseThrow());
            lastTrace.set(SeededScheduleTest.workload());
        }
    }

    static Events run(Class<?> c) {
        return EngineTestKit.engine("junit-jupiter").selectors(selectClass(c)).execute().testEvents();
    }

    static List<String> replay(String seed) {
        EngineTestKit.engine("junit-jupiter").configurationParameter(GoTestExtension.SEED_PROPERTY, seed)
                .selectors(selectClass(Replayed.class)).execute().testEvents()
                .assertStatistics(s -> s.started(1).succeeded(1));
        assertEquals(Long.parseLong(seed), seenSeed.get());
        return lastTrace.get();
    }

    @Test
    void theSeedPropertyReplaysATestsInterleaving() {
        List<String> first = replay("9001");
        assertEquals(first, replay("9001"));
        assertEquals(first, replay("9001"));
        assertTrue(!first.equals(replay("9002")) || !first.equals(replay("9003")), "other seeds, the same trace");
    }

    static Throwable onlyFailure(Class<?> c) {
        Events ev = run(c);
        ev.assertStatistics(s -> s.started(1).failed(1).succeeded(0));
        List<Event> failed = ev.failed().list();
        return failed.get(0).getRequiredPayload(org.junit.platform.engine.TestExecutionResult.class)
                .getThrowable().orElseThrow();
    }

    static void assertSeedPrinted(Throwable t) {
        assertTrue(Arrays.stream(t.getSuppressed()).anyMatch(s -> s.getMessage().contains("replay it with @GoTest(seed = ")),
                "no seed on " + t);
    }

    @Test
    void aPassingTestPassesAsAGoroutineWithItsProcsAndSeed() {
        run(Passing.class).assertStatistics(s -> s.started(3).succeeded(3).failed(0));
        assertEquals(3, seenProcs.get());
        assertEquals(42, seenSeed.get());
        run(ClassLevel.class).assertStatistics(s -> s.started(1).succeeded(1));
    }

    @Test
    void aLeakFailsWithADumpOfTheLeakedGoroutine() {
        GoroutineLeakError e = assertInstanceOf(GoroutineLeakError.class, onlyFailure(Leaking.class));
        assertEquals(1, e.leaked());
        assertTrue(e.getMessage().contains("still alive after the test returned"), e.getMessage());
        assertTrue(e.dump().contains("[chan receive]") && e.dump().contains("leavesAGoroutineBlocked"), e.dump());
        assertSeedPrinted(e);
    }

    @Test
    void aDeadlockFailsWithTheRuntimesDump() {
        DeadlockError e = assertInstanceOf(DeadlockError.class, onlyFailure(Deadlocking.class));
        assertTrue(e.dump().contains("[chan send]") && e.dump().contains("waitsForAReceiverThatNeverComes"), e.dump());
        assertSeedPrinted(e);
    }

    @Test
    void aPanicOfAnyGoroutineFailsTheTest() {
        IllegalStateException e = assertInstanceOf(IllegalStateException.class, onlyFailure(Panicking.class));
        assertEquals("goroutine failed", e.getMessage());
        assertTrue(Arrays.stream(e.getSuppressed()).anyMatch(s -> s.getMessage().contains("panicked while main ran")));
        assertSeedPrinted(e);
    }

    @Test
    void aTimeoutFailsWithADumpOfWhereEachGoroutineWaits() {
        GoroutineTimeoutError e = assertInstanceOf(GoroutineTimeoutError.class, onlyFailure(TimingOut.class));
        assertTrue(e.getMessage().startsWith("test timed out after 300 ms"), e.getMessage());
        assertTrue(e.dump().contains("[sleep]") && e.dump().contains("waitsOnATimerThatIsTooLate"), e.dump());
        assertSeedPrinted(e);
    }
}
