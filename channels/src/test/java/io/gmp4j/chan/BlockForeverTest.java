package io.gmp4j.chan;

import io.gmp4j.runtime.Scheduler;
import io.gmp4j.DeadlockError;
import io.gmp4j.GoRuntime;
import io.gmp4j.NoUncaughtExceptions;
import io.gmp4j.TestSupport;
import io.gmp4j.runtime.G;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static io.gmp4j.chan.ChanTestSupport.awaitParked;
import static io.gmp4j.chan.ChanTestSupport.run;
import static io.gmp4j.chan.ChanTestSupport.runtime;
import static org.junit.jupiter.api.Assertions.*;

/**
 * Go's {@code select {}} is {@link Select#blockForever()}: the goroutine parks for good with
 * Go's wait reason "select (no cases)", holds no P, and counts as asleep for the deadlock
 * detector.
 */
@ExtendWith(NoUncaughtExceptions.class)
class BlockForeverTest {

    @ParameterizedTest(name = "maxProcs={0}")
    @ValueSource(ints = {1, 2})
    void blockedGoroutineLetsTheOthersRun(int procs) {
        try (GoRuntime rt = runtime(procs, "block-forever")) {
            AtomicBoolean returned = new AtomicBoolean();
            G blocked = Scheduler.of(rt).go(() -> {
                Select.blockForever();
                returned.set(true);
            });
            awaitParked(rt, blocked, "select (no cases)");
            // With GOMAXPROCS 1 the other goroutines need the one P: counted exactly.
            int n = TestSupport.stress(20_000, 2_000);
            int workers = 4;
            Chan<Integer> results = new Chan<>(workers);
            run(rt, () -> {
                for (int w = 0; w < workers; w++) {
                    int base = w * n;
                    rt.go(() -> {
                        Chan<Integer> c = new Chan<>(1);
                        int sum = 0;
                        for (int i = 0; i < n; i++) {
                            c.send(base + i);
                            sum += c.recv() - base;
                        }
                        results.send(sum);
                    });
                }
                for (int w = 0; w < workers; w++) {
                    assertEquals(n * (n - 1) / 2, (int) results.recv());
                }
            });
            awaitParked(rt, blocked, "select (no cases)");
            assertFalse(returned.get());
        }
    }

    @Test
    void mainInSelectBlockForeverIsADeadlock() throws Exception {
        try (GoRuntime rt = runtime(2, "block-forever-main")) {
            Throwable t = TestSupport.runMain(rt, () -> {
                rt.go(Select::blockForever);
                Select.blockForever();
            });
            DeadlockError e = assertInstanceOf(DeadlockError.class, t);
            assertTrue(e.getMessage().startsWith(DeadlockError.MESSAGE), e.getMessage());
            assertTrue(e.dump().contains("[select (no cases)]"), e.dump());
        }
    }

    /** A select whose only cases are on nil never fires: Go parks it in selectgo as "select". */
    @Test
    void mainInASelectOfNilCasesIsADeadlock() throws Exception {
        try (GoRuntime rt = runtime(1, "nil-select-main")) {
            Throwable t = TestSupport.runMain(rt, () -> Select.select(
                    Select.onRecv(Chan.<Integer>nil(), v -> fail("nil fired")),
                    Select.onSend(Chan.<Integer>nil(), 7, () -> fail("nil fired"))));
            DeadlockError e = assertInstanceOf(DeadlockError.class, t);
            assertTrue(e.dump().contains("[select]"), e.dump());
        }
    }

    /** On a thread that is not a goroutine, blockForever parks that thread (in a gmp4j wait). */
    @Test
    void platformThreadParksForGood() {
        AtomicBoolean returned = new AtomicBoolean();
        Thread t = Thread.ofPlatform().daemon().name("block-forever-platform").start(() -> {
            Select.blockForever();
            returned.set(true);
        });
        awaitParked(t);
        assertTrue(t.isAlive());
        assertFalse(returned.get());
    }
}
