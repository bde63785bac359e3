package io.gmp4j;

import io.gmp4j.runtime.Scheduler;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/** Shared helpers for the scheduler tests. */
public final class TestSupport {
    /** The safety-net timeout for every wait: a test that needs it has already failed. */
    public static final long TIMEOUT_S = 60;

    private TestSupport() {
    }

    /** True when long stress tests must run briefly ({@code -Dgmp4j.stress=short}, as on CI). */
    public static boolean shortMode() {
        return "short".equals(System.getProperty("gmp4j.stress", "full"));
    }

    /** {@code full} in full mode, {@code brief} with {@code -Dgmp4j.stress=short}. */
    public static int stress(int full, int brief) {
        return shortMode() ? brief : full;
    }

    /**
     * A loopback port where every dial is refused while the returned socket stays open: the
     * socket is bound there and never listens, so no other {@code bind(0)} (a server under
     * test, say) can be handed the port. A port that was only free when a test looked can be.
     */
    public static Socket refusingPort() throws IOException {
        Socket holder = new Socket();
        try {
            holder.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        } catch (IOException e) {
            holder.close();
            throw e;
        }
        return holder;
    }

    /** Awaits {@code latch} for at most {@link #TIMEOUT_S}; fails with {@code why} otherwise. */
    public static void await(CountDownLatch latch, Supplier<String> why) {
        try {
            assertTrue(latch.await(TIMEOUT_S, TimeUnit.SECONDS),
                    () -> "timed out after " + TIMEOUT_S + " s: " + why.get());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            fail("interrupted", e);
        }
    }

    /**
     * Waits (spinning politely, no sleeps) until {@code condition} holds; fails after
     * {@link #TIMEOUT_S}. For observing a state change that has no latch, like a thread
     * reaching WAITING.
     */
    public static void awaitCondition(BooleanSupplier condition, Supplier<String> why) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TIMEOUT_S);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                fail("timed out after " + TIMEOUT_S + " s: " + why.get());
            }
            Thread.onSpinWait();
            Thread.yield();
        }
    }

    /** Busy CPU work for about {@code nanos}, with no safe point in it. */
    public static long burn(long nanos) {
        long end = System.nanoTime() + nanos;
        long x = 0;
        while (System.nanoTime() - end < 0) {
            x += x * 31 + 7;
        }
        return x;
    }

    /** A goroutine body that may throw. */
    @FunctionalInterface
    public interface Body {
        void run() throws Exception;
    }

    /**
     * Runs {@code body} as a goroutine of {@code rt}, waits for it (with the safety-net timeout)
     * and rethrows whatever it threw, so assertions inside goroutines fail the test. On timeout
     * the failure carries the scheduler's stats and the goroutine dump.
     */
    public static void runInGoroutine(GoRuntime rt, Body body) {
        java.util.concurrent.atomic.AtomicReference<Throwable> failure = new java.util.concurrent.atomic.AtomicReference<>();
        CountDownLatch done = new CountDownLatch(1);
        rt.go(() -> {
            try {
                body.run();
            } catch (Throwable t) {
                failure.set(t);
            } finally {
                done.countDown();
            }
        });
        await(done, () -> rt.stats() + "\n" + rt.dump());
        Throwable t = failure.get();
        if (t != null) {
            throw new AssertionError("the goroutine failed: " + t, t);
        }
    }

    /**
     * Runs {@code rt.main(main)} on a platform thread, as a program's main would, and returns
     * what it threw ({@link DeadlockError} for a deadlock), or null if main returned. Fails if
     * it does neither within the safety-net timeout.
     */
    public static Throwable runMain(GoRuntime rt, Runnable main) throws InterruptedException {
        java.util.concurrent.atomic.AtomicReference<Throwable> thrown = new java.util.concurrent.atomic.AtomicReference<>();
        Thread t = Thread.ofPlatform().daemon().name("main-of-" + Scheduler.of(rt)).start(() -> {
            try {
                rt.main(main);
            } catch (Throwable e) {
                thrown.set(e);
            }
        });
        t.join(TimeUnit.SECONDS.toMillis(TIMEOUT_S));
        if (t.isAlive()) {
            fail("main neither returned nor reported a deadlock: " + rt.stats() + "\n" + rt.dump());
        }
        return thrown.get();
    }

    /** The JVM flags a gmp4j program runs with (the pom's gmp4j.jvm.flags), for child JVMs. */
    public static final List<String> GMP4J_JVM_FLAGS = List.of("--add-opens", "java.base/java.lang=ALL-UNNAMED",
            "--enable-native-access=ALL-UNNAMED", "--sun-misc-unsafe-memory-access=allow", "-Djdk.trackAllThreads=false");

    /** What a child JVM printed (stdout and stderr together) and its exit status. */
    public record ChildRun(int exit, String output) {
    }

    /**
     * Runs {@code main} in a child JVM with this test's java and classpath and {@code jvmFlags},
     * started through {@code launcher} (e.g. {@code taskset -c 1}; empty for none), and waits for
     * it (safety-net timeout).
     */
    public static ChildRun runChildJvm(List<String> launcher, List<String> jvmFlags, Class<?> main)
            throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>(launcher);
        cmd.add(ProcessHandle.current().info().command().orElseThrow());
        cmd.addAll(jvmFlags);
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
        // Output to a file, not a pipe: a child that fills a pipe nobody reads yet never exits.
        java.nio.file.Path out = java.nio.file.Files.createTempFile("gmp4j-child", ".out");
        try {
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(out.toFile()).start();
            if (!p.waitFor(TIMEOUT_S, TimeUnit.SECONDS)) {
                String dump = threadDump(p);
                p.destroyForcibly();
                fail("child JVM did not finish in " + TIMEOUT_S + " s: " + cmd + "\n--- its output:\n"
                        + java.nio.file.Files.readString(out, StandardCharsets.UTF_8) + "\n--- its threads:\n" + dump);
            }
            return new ChildRun(p.exitValue(), java.nio.file.Files.readString(out, StandardCharsets.UTF_8));
        } finally {
            java.nio.file.Files.deleteIfExists(out);
        }
    }

    /** The threads of a child JVM that hangs ({@code jcmd <pid> Thread.print}), for the failure report. */
    private static String threadDump(Process p) {
        java.nio.file.Path jcmd = java.nio.file.Path.of(System.getProperty("java.home"), "bin", "jcmd");
        try {
            Process d = new ProcessBuilder(jcmd.toString(), Long.toString(p.pid()), "Thread.print")
                    .redirectErrorStream(true).start();
            byte[] text = d.getInputStream().readAllBytes();
            d.waitFor(30, TimeUnit.SECONDS);
            return new String(text, StandardCharsets.UTF_8);
        } catch (IOException | InterruptedException e) {
            return "(no thread dump: " + e + ")";
        }
    }

    /**
     * The main of a child JVM that checks a clear start-up error: runs {@code body}, then prints
     * "no error" and exits 0, or prints "error: " and the message of the
     * {@link IllegalStateException} it threw and exits 3.
     */
    public static void childMain(Runnable body) {
        try {
            body.run();
            System.out.println("no error");
            System.exit(0);
        } catch (IllegalStateException e) {
            System.out.println("error: " + e.getMessage());
            System.exit(3);
        }
    }

    /** Runs {@code body} with system property {@code name} set to {@code value} (null: cleared), restoring it after. */
    public static void withProperty(String name, String value, Runnable body) {
        String old = System.getProperty(name);
        try {
            if (value == null) {
                System.clearProperty(name);
            } else {
                System.setProperty(name, value);
            }
            body.run();
        } finally {
            if (old == null) {
                System.clearProperty(name);
            } else {
                System.setProperty(name, old);
            }
        }
    }
}
