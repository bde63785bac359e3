package io.gmp4j;

import io.gmp4j.runtime.Scheduler;

/**
 * Go's built-ins for Java: {@code go}, {@code main}, {@code Gosched}, {@code NumGoroutine},
 * {@code GOMAXPROCS}, {@code GC}, {@code ReadMemStats}.
 * Use with {@code import static io.gmp4j.Go.*}:
 * <pre>{@code
 * public static void main(String[] args) {
 *     Go.main(() -> {
 *         go(() -> System.out.println("in a goroutine"));
 *         System.out.println(numGoroutine());
 *     });
 * }
 * }</pre>
 * Goroutines started from a goroutine belong to its runtime; from any other thread, to the
 * {@linkplain GoRuntime#defaultRuntime() default runtime}.
 */
public final class Go {
    private Go() {
    }

    /** Go's {@code go f()}: starts {@code f} as a new goroutine. */
    public static void go(Runnable f) {
        if (!Scheduler.goFromCurrent(f)) {
            GoRuntime.defaultRuntime().go(f);
        }
    }

    /**
     * Go's {@code func main()}: runs {@code main} as the main goroutine of the default runtime
     * and returns when it returns; goroutines still running are left behind. See
     * {@link GoRuntime#main} for the deadlock report.
     *
     * <p>As in Go, an exception that ends any goroutine of the default runtime while main runs,
     * main's own included (an unrecovered panic), ends the process: the report
     * ({@code panic: } and the exception, {@code goroutine 7 [running]:} and its stack) goes to
     * stderr, which is flushed, and the JVM exits with status 2 through {@link Runtime#exit}.
     * Shutdown hooks run (the JVM's atexit: log flushing, JFR, deleteOnExit); the finally blocks
     * of other goroutines do not, as Go runs no deferred call of another goroutine. Tests use a
     * runtime's own {@link GoRuntime#main}, which throws the panic to its caller instead.
     *
     * @throws DeadlockError when all goroutines fall asleep
     */
    public static void main(Runnable main) {
        GoRuntime.defaultRuntime().main(main, true);
    }

    /** Go's {@code runtime.Gosched()}: yields the processor; the caller queues globally. */
    public static void gosched() {
        Scheduler.gosched();
    }

    /**
     * A cooperative preemption point: yields if sysmon asked this goroutine's P to give way.
     * Long CPU-bound loops may call it; channel operations do.
     */
    public static void checkPreempt() {
        Scheduler.safePoint();
    }

    /** Go's {@code runtime.NumGoroutine()} for the caller's runtime. */
    public static long numGoroutine() {
        return GoRuntime.current().numGoroutine();
    }

    /** Go's {@code runtime.GOMAXPROCS(0)} for the caller's runtime. */
    public static int gomaxprocs() {
        return GoRuntime.current().gomaxprocs();
    }

    /**
     * Go's {@code runtime.GOMAXPROCS(n)} for the caller's runtime: sets the number of Ps and
     * returns the previous number; {@code n < 1} only queries. See {@link GoRuntime#gomaxprocs(int)}.
     */
    public static int gomaxprocs(int n) {
        return GoRuntime.current().gomaxprocs(n);
    }

    /**
     * Go's {@code runtime.GC()}: runs a garbage collection and blocks until the JVM reports a
     * completed collection cycle. See {@link MemStats#gc()}.
     */
    public static void gc() {
        MemStats.gc();
    }

    /** Go's {@code runtime.ReadMemStats}: the JVM's heap and collector figures. See {@link MemStats}. */
    public static MemStats readMemStats() {
        return MemStats.read();
    }
}
