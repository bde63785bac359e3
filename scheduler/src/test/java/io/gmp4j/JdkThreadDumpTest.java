package io.gmp4j;

import io.gmp4j.runtime.Scheduler;
import com.sun.management.HotSpotDiagnosticMXBean;
import io.gmp4j.runtime.G;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The JDK's own thread dump ({@code jcmd <pid> Thread.dump_to_file -format=json}, here through
 * {@link HotSpotDiagnosticMXBean#dumpThreads}) lists a runtime's goroutines in a container named
 * after the runtime, and only while they live. The tests run with
 * {@code -Djdk.trackAllThreads=false} (gmp4j's flags), under which the JDK's root container
 * lists no virtual thread at all: the goroutines appear only because they start in the
 * runtime's own container.
 */
@ExtendWith(NoUncaughtExceptions.class)
class JdkThreadDumpTest {
    private static final int N = 5;

    @Test
    void jdkThreadDumpListsTheRuntimesGoroutinesUnderItsName(@TempDir Path dir) throws Throwable {
        try (GoRuntime rt = GoRuntime.builder().maxProcs(2).name("jdk-dump").build()) {
            List<G> gs = new ArrayList<>();
            CountDownLatch parked = new CountDownLatch(N);
            CountDownLatch finished = new CountDownLatch(N);
            for (int i = 0; i < N; i++) {
                gs.add(Scheduler.of(rt).go(() -> {
                    parked.countDown();
                    G.current().park("select");
                    finished.countDown();
                }));
            }
            TestSupport.await(parked, () -> rt.stats().toString());
            for (G g : gs) {
                // Started in the runtime's container, not the JDK's root one (which would count it).
                assertTrue(containerOf(g.thread()).startsWith("gmp4j runtime 'jdk-dump'/"), containerOf(g.thread()));
            }

            String section = containerSection(dump(dir.resolve("live.json")), "gmp4j runtime 'jdk-dump'");
            assertNotNull(section, "no container for the runtime in the JDK's thread dump");
            List<Long> listed = tids(section);
            for (G g : gs) {
                assertTrue(listed.contains(g.thread().threadId()),
                        "goroutine " + g.id() + " (tid " + g.thread().threadId() + ") missing from " + section);
            }

            gs.forEach(G::ready);
            TestSupport.await(finished, () -> rt.stats().toString());
            TestSupport.awaitCondition(() -> gs.stream().noneMatch(g -> g.thread().isAlive()), () -> "goroutines still alive");
            String after = containerSection(dump(dir.resolve("ended.json")), "gmp4j runtime 'jdk-dump'");
            List<Long> left = after == null ? List.of() : tids(after);
            for (G g : gs) {
                assertFalse(left.contains(g.thread().threadId()), "ended goroutine " + g.id() + " still listed: " + after);
            }
        }
    }

    @Test
    void aClosedRuntimeLeavesNoContainerBehind(@TempDir Path dir) throws Exception {
        try (GoRuntime rt = GoRuntime.builder().maxProcs(1).name("jdk-dump-closed").build()) {
            CountDownLatch ran = new CountDownLatch(1);
            Scheduler.of(rt).go(ran::countDown);
            TestSupport.await(ran, () -> rt.stats().toString());
            assertNotNull(containerSection(dump(dir.resolve("open.json")), "gmp4j runtime 'jdk-dump-closed'"));
        }
        assertNull(containerSection(dump(dir.resolve("closed.json")), "gmp4j runtime 'jdk-dump-closed'"));
    }

    /** The name of the JDK thread container {@code t} was started in (Thread.threadContainer(), package-private). */
    private static String containerOf(Thread t) throws Throwable {
        MethodHandle mh = MethodHandles.privateLookupIn(Thread.class, MethodHandles.lookup())
                .findVirtual(Thread.class, "threadContainer", MethodType.methodType(Class.forName("jdk.internal.vm.ThreadContainer")));
        return String.valueOf(mh.invoke(t));
    }

    private static String dump(Path file) throws Exception {
        HotSpotDiagnosticMXBean bean = ManagementFactory.getPlatformMXBean(HotSpotDiagnosticMXBean.class);
        bean.dumpThreads(file.toString(), HotSpotDiagnosticMXBean.ThreadDumpFormat.JSON);
        return Files.readString(file);
    }

    /** The JSON text of the container called {@code name}, up to the next container; or null. */
    private static String containerSection(String json, String name) {
        int at = json.indexOf("\"container\": \"" + name);
        if (at < 0) {
            return null;
        }
        int next = json.indexOf("\"container\": ", at + 1);
        return json.substring(at, next < 0 ? json.length() : next);
    }

    private static List<Long> tids(String section) {
        List<Long> out = new ArrayList<>();
        Matcher m = Pattern.compile("\"tid\": \"(\\d+)\"").matcher(section);
        while (m.find()) {
            out.add(Long.parseLong(m.group(1)));
        }
        return out;
    }
}
