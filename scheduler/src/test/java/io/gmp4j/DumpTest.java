package io.gmp4j;

import io.gmp4j.runtime.Scheduler;
import io.gmp4j.runtime.G;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.*;

/** Go-style goroutine dump and schedtrace line. */
@ExtendWith(NoUncaughtExceptions.class)
class DumpTest {
    private static final Pattern SCHEDTRACE = Pattern.compile(
            "SCHED \\d+ms: gomaxprocs=2 idleprocs=\\d+ threads=\\d+ spinningthreads=\\d+ idlethreads=\\d+ "
                    + "runqueue=\\d+ \\[\\d+ \\d+\\]");

    @Test
    void parkedGoroutineShowsItsWaitReasonAndStack() {
        try (GoRuntime rt = GoRuntime.builder().maxProcs(2).name("dump").build()) {
            AtomicReference<G> child = new AtomicReference<>();
            CountDownLatch spawned = new CountDownLatch(1);
            CountDownLatch finished = new CountDownLatch(2);
            G parent = Scheduler.of(rt).go(() -> {
                child.set(Scheduler.of(rt).go(() -> {
                    receiveLikeAChannel();
                    finished.countDown();
                }));
                spawned.countDown();
                G.current().park("select");
                finished.countDown();
            });
            TestSupport.await(spawned, () -> rt.stats().toString());
            G g = child.get();
            TestSupport.awaitCondition(() -> g.thread().getState() == Thread.State.WAITING
                    && parent.thread().getState() == Thread.State.WAITING, () -> "never parked");

            String dump = rt.dump();
            String header = "goroutine " + g.id() + " [chan receive]:\n";
            int at = dump.indexOf(header);
            assertTrue(at >= 0, dump);
            int end = dump.indexOf("\n\n", at);
            String block = dump.substring(at, end < 0 ? dump.length() : end);
            assertTrue(block.contains("\tio.gmp4j.runtime.G.park("), block);
            assertTrue(block.contains("\tio.gmp4j.DumpTest.receiveLikeAChannel("), block);
            assertTrue(dump.contains("goroutine " + parent.id() + " [select]:\n"), dump);
            assertTrue(dump.indexOf("goroutine " + parent.id() + " [") < at, "sorted by goroutine id");

            g.ready();
            parent.ready();
            TestSupport.await(finished, () -> rt.stats().toString());
        }
    }

    @Test
    void goroutineInsideASyscallShowsSyscallUntilItReturns() {
        try (GoRuntime rt = GoRuntime.builder().maxProcs(1).name("dump-syscall").build()) {
            CountDownLatch inside = new CountDownLatch(1);
            CountDownLatch leave = new CountDownLatch(1);
            CountDownLatch returned = new CountDownLatch(1);
            CountDownLatch finish = new CountDownLatch(1);
            CountDownLatch finished = new CountDownLatch(1);
            G g = Scheduler.of(rt).go(() -> {
                try {
                    Syscall.blocking(() -> {
                        inside.countDown();
                        leave.await(); // blocks the goroutine inside the syscall
                        return null;
                    });
                    returned.countDown();
                    finish.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                finished.countDown();
            });
            TestSupport.await(inside, () -> rt.stats().toString());
            String header = "goroutine " + g.id() + " [syscall]:\n";
            TestSupport.awaitCondition(() -> rt.dump().contains(header), rt::dump);
            leave.countDown();
            TestSupport.await(returned, () -> rt.stats().toString());
            String after = rt.dump();
            assertFalse(after.contains(header), after);
            finish.countDown();
            TestSupport.await(finished, () -> rt.stats().toString());
        }
    }

    private static void receiveLikeAChannel() {
        G.current().park("chan receive");
    }

    @Test
    void schedtraceLineHasGoFormat() {
        try (GoRuntime rt = GoRuntime.builder().maxProcs(2).name("schedtrace").build()) {
            CountDownLatch ran = new CountDownLatch(100);
            for (int i = 0; i < 100; i++) {
                rt.go(ran::countDown);
            }
            TestSupport.await(ran, () -> rt.stats().toString());
            String line = rt.stats().schedtrace();
            assertTrue(SCHEDTRACE.matcher(line).matches(), line);
            String again = Scheduler.of(rt).schedtrace();
            assertTrue(SCHEDTRACE.matcher(again).matches(), again);
        }
    }
}
