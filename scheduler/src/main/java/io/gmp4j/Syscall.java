package io.gmp4j;

import io.gmp4j.runtime.Scheduler;

/**
 * Go's {@code entersyscall}/{@code exitsyscall} for Java: wrap a call that blocks its carrier
 * thread (file I/O, JNI, a blocking driver, a class initializer doing I/O) so the scheduler can
 * hand the goroutine's P to another M while it waits.
 * <pre>{@code
 * byte[] data = Syscall.blocking(() -> Files.readAllBytes(path));
 * }</pre>
 * On return the goroutine takes its P back if nobody took it (the fast path), else an idle P,
 * else it waits in the global run queue. Outside a goroutine the call simply runs.
 */
public final class Syscall {
    private Syscall() {
    }

    /** A call that may block and may throw. */
    @FunctionalInterface
    public interface Call<T, X extends Exception> {
        /** Performs the call. */
        T call() throws X;
    }

    /** A call without a result that may block and may throw. */
    @FunctionalInterface
    public interface Action<X extends Exception> {
        /** Performs the call. */
        void run() throws X;
    }

    /**
     * Runs {@code call} as a syscall: sysmon hands the P off if it blocks for more than about
     * 20 µs while other work waits, or 10 ms in any case.
     */
    public static <T, X extends Exception> T blocking(Call<T, X> call) throws X {
        return run(call, false);
    }

    /** {@link #blocking(Call)} for a call without a result. */
    public static <X extends Exception> void blocking(Action<X> action) throws X {
        run(() -> {
            action.run();
            return null;
        }, false);
    }

    /**
     * Like {@link #blocking(Call)}, for calls known to block long (Go's
     * {@code entersyscallblock}): the P is handed off at once.
     */
    public static <T, X extends Exception> T blockingLong(Call<T, X> call) throws X {
        return run(call, true);
    }

    private static <T, X extends Exception> T run(Call<T, X> call, boolean handoffNow) throws X {
        Scheduler s = Scheduler.current();
        if (s == null || !Thread.currentThread().isVirtual()) {
            return call.call();
        }
        long token = s.entersyscall(handoffNow);
        try {
            return call.call();
        } finally {
            s.exitsyscall(token);
        }
    }
}
