package io.gmp4j.test;

import io.gmp4j.GoRuntime;
import io.gmp4j.runtime.G;
import io.gmp4j.runtime.Scheduler;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * The JUnit 5 extension behind {@link GoTest}; register it with {@code @GoTest} or
 * {@code @ExtendWith(GoTestExtension.class)} (then with {@code @GoTest}'s defaults).
 *
 * <p>Each test method gets a fresh runtime ({@code GoRuntime.builder()}, seeded) and runs as its
 * main goroutine ({@link GoRuntime#main}) on a thread of its own while the test's thread waits,
 * at most {@link GoTest#timeoutMillis}. Then, in this order, the first that holds fails the
 * test: the timeout ({@link GoroutineTimeoutError}, with the dump); what main threw (the test's
 * own assertion, a goroutine's panic, which ends main, or {@link io.gmp4j.DeadlockError} with
 * the dump); a goroutine still alive {@link #LEAK_GRACE_MILLIS} after main returned
 * ({@link GoroutineLeakError}, with the dump). The runtime is closed either way. A failing test
 * prints its seed to stderr and carries it as a suppressed exception.
 */
public final class GoTestExtension implements InvocationInterceptor {
    /** How long goroutines may take to end after main returned before they count as leaked. */
    public static final long LEAK_GRACE_MILLIS = 2_000;
    /** The system property that replays a seed: {@code -Dgmp4j.test.seed=...}. */
    public static final String SEED_PROPERTY = "gmp4j.test.seed";

    /** For JUnit. */
    public GoTestExtension() {
    }

    @Override
    public void interceptTestMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> call,
                                    ExtensionContext context) throws Throwable {
        run(invocation, context);
    }

    @Override
    public void interceptTestTemplateMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> call,
                                            ExtensionContext context) throws Throwable {
        run(invocation, context);
    }

    private static void run(Invocation<Void> invocation, ExtensionContext context) throws Throwable {
        GoTest cfg = config(context);
        int procs = cfg == null ? 0 : cfg.procs();
        long timeout = cfg == null ? 30_000 : cfg.timeoutMillis();
        boolean bubble = cfg != null && cfg.bubble();
        if (timeout <= 0) {
            throw new IllegalArgumentException("@GoTest(timeoutMillis = " + timeout + "): must be positive");
        }
        if (procs < 0) {
            throw new IllegalArgumentException("@GoTest(procs = " + procs + "): must be >= 0");
        }
        long seed = seed(cfg, context);
        Runnable body = () -> {
            try {
                invocation.proceed();
            } catch (Throwable t) {
                throw sneaky(t);
            }
        };
        Runnable main = bubble ? () -> SyncTest.run(body) : body;
        Throwable failure = GoTestRun.run(context.getDisplayName(), procs, seed, timeout, main);
        if (failure != null) {
            String replay = "gmp4j-test: " + context.getUniqueId() + " failed with seed " + seed
                    + "; replay it with @GoTest(seed = " + seed + "L) or -D" + SEED_PROPERTY + "=" + seed;
            System.err.println(replay);
            failure.addSuppressed(new ReplaySeed(replay));
            throw failure;
        }
    }

    /** The method's {@code @GoTest}, else its class's (or an enclosing class's), else null. */
    private static GoTest config(ExtensionContext context) {
        Optional<GoTest> m = AnnotationSupport.findAnnotation(context.getTestMethod(), GoTest.class);
        if (m.isPresent()) {
            return m.get();
        }
        for (Class<?> c = context.getRequiredTestClass(); c != null; c = c.getEnclosingClass()) {
            Optional<GoTest> a = AnnotationSupport.findAnnotation(c, GoTest.class);
            if (a.isPresent()) {
                return a.get();
            }
        }
        return null;
    }

    /**
     * The annotation's seed, else the {@value #SEED_PROPERTY} configuration parameter (JUnit
     * reads it from a system property too, and from {@code junit-platform.properties}), else a
     * random one.
     */
    private static long seed(GoTest cfg, ExtensionContext context) {
        if (cfg != null && cfg.seed() != GoTest.RANDOM_SEED) {
            return cfg.seed();
        }
        String p = context.getConfigurationParameter(SEED_PROPERTY).orElse(null);
        if (p != null && !p.isBlank()) {
            try {
                return Long.parseLong(p.trim().replaceFirst("[lL]$", ""));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("-D" + SEED_PROPERTY + " must be a long, got '" + p + "'");
            }
        }
        return ThreadLocalRandom.current().nextLong();
    }

    @SuppressWarnings("unchecked")
    private static <T extends Throwable> RuntimeException sneaky(Throwable t) throws T {
        throw (T) t;
    }

    /** The seed of a failing test, as a suppressed exception of its failure. */
    private static final class ReplaySeed extends RuntimeException {
        private static final long serialVersionUID = 1L;

        ReplaySeed(String message) {
            super(message, null, false, false);
        }
    }

    /** One test's runtime, main goroutine and checks. */
    static final class GoTestRun {
        private GoTestRun() {
        }

        /** Runs {@code main} as the main goroutine of a new runtime: the test's failure, or null. */
        static Throwable run(String name, int procs, long seed, long timeoutMillis, Runnable main)
                throws InterruptedException {
            GoRuntime.Builder b = GoRuntime.builder().name("gotest-" + name.replaceAll("[^A-Za-z0-9_.-]", "")).seed(seed);
            if (procs > 0) {
                b.maxProcs(procs);
            }
            GoRuntime rt = b.build();
            boolean closed = false;
            try {
                AtomicReference<Throwable> thrown = new AtomicReference<>();
                CountDownLatch ended = new CountDownLatch(1);
                Thread waiter = Thread.ofPlatform().daemon().name(Scheduler.of(rt).toString() + " main").start(() -> {
                    try {
                        rt.main(main);
                    } catch (Throwable t) {
                        thrown.set(t);
                    } finally {
                        ended.countDown();
                    }
                });
                if (!ended.await(timeoutMillis, TimeUnit.MILLISECONDS)) {
                    // Taken before the close: the dump says where each goroutine waits. The
                    // waiting thread stays parked (a daemon): the main goroutine it waits for
                    // never ends.
                    String dump = rt.dump();
                    Scheduler.of(rt).close(1_000);
                    closed = true;
                    return new GoroutineTimeoutError(timeoutMillis, dump);
                }
                Throwable t = thrown.get();
                if (t != null) {
                    return t;
                }
                long live = awaitEnded(rt, System.nanoTime() + LEAK_GRACE_MILLIS * 1_000_000);
                if (live > 0) {
                    return new GoroutineLeakError(live, rt.dump());
                }
                return null;
            } finally {
                if (!closed) {
                    Scheduler.of(rt).close(1_000);
                }
            }
        }
    }

    /**
     * Main's goroutine and those that were ending when it returned may take a moment to end:
     * joins each live goroutine's thread until {@code deadline} (woken by its end, not by a
     * clock), again while goroutines those started are alive, and returns how many outlive
     * it: those are the leak. With the registry off there is nothing to join and the count
     * is taken at once.
     */
    private static long awaitEnded(GoRuntime rt, long deadline) throws InterruptedException {
        while (rt.numGoroutine() > 0) {
            List<G> live = Scheduler.of(rt).allGoroutines();
            long left = deadline - System.nanoTime();
            if (live.isEmpty() || left <= 0) {
                break;
            }
            for (G g : live) {
                left = deadline - System.nanoTime();
                if (left <= 0 || !g.thread().join(Duration.ofNanos(left))) {
                    return rt.numGoroutine();
                }
            }
        }
        return rt.numGoroutine();
    }
}
