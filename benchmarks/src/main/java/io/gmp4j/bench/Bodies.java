package io.gmp4j.bench;

/**
 * The benchmark bodies, shared by every implementation: they start concurrent work only through
 * a {@link Spawner} and join only through {@link Join}. Each must be called from inside the
 * implementation's context (a gmp4j goroutine, or a JDK virtual thread).
 */
public final class Bodies {
    /** {@code spawn}: goroutines started from one goroutine. */
    public static final int SPAWN_N = 1_000_000;
    /** {@code skynet}: leaves of the tree (10-ary, depth 6). */
    public static final int SKYNET_SIZE = 1_000_000;
    public static final int SKYNET_DIV = 10;
    public static final long SKYNET_EXPECTED = 499_999_500_000L;
    /** {@code fib}: fib(32), both halves as goroutines at recursion depth < 12. */
    public static final int FIB_N = 32;
    public static final int FIB_SPAWN_DEPTH = 12;
    public static final long FIB_EXPECTED = 2_178_309L;

    private Bodies() {
    }

    /**
     * Starts {@code n} tasks that each count down one join and waits for all of them.
     *
     * @return the number of tasks that completed (== n, since the join only returns at zero)
     */
    public static long spawn(Spawner s, int n) {
        Join j = new Join(n);
        Runnable task = () -> j.complete(0);
        for (int i = 0; i < n; i++) {
            s.spawn(task);
        }
        j.await();
        return n;
    }

    /**
     * Skynet: a root task spawns {@code div} children, each of which spawns {@code div} more,
     * down to {@code size} leaves; a leaf returns its number, a node the sum of its children.
     *
     * @return the sum of 0 .. size-1
     */
    public static long skynet(Spawner s, int size, int div) {
        Join root = new Join(1);
        s.spawn(() -> skynetNode(s, root, 0, size, div));
        return root.await();
    }

    private static void skynetNode(Spawner s, Join parent, long num, int size, int div) {
        if (size == 1) {
            parent.complete(num);
            return;
        }
        Join j = new Join(div);
        int sub = size / div;
        for (int i = 0; i < div; i++) {
            long childNum = num + (long) i * sub;
            s.spawn(() -> skynetNode(s, j, childNum, sub, div));
        }
        parent.complete(j.await());
    }

    /** Recursive fib(n): at recursion depth below {@code spawnDepth} both halves run as tasks. */
    public static long fib(Spawner s, int n, int spawnDepth) {
        return fibNode(s, n, 0, spawnDepth);
    }

    private static long fibNode(Spawner s, int n, int depth, int spawnDepth) {
        if (depth >= spawnDepth || n < 2) {
            return fibSeq(n);
        }
        Join j = new Join(2);
        s.spawn(() -> j.complete(fibNode(s, n - 1, depth + 1, spawnDepth)));
        s.spawn(() -> j.complete(fibNode(s, n - 2, depth + 1, spawnDepth)));
        return j.await();
    }

    /** Plain sequential fib. */
    public static long fibSeq(int n) {
        return n < 2 ? n : fibSeq(n - 1) + fibSeq(n - 2);
    }

    /** Sum 0 + 1 + ... + (n-1): skynet's expected result for n leaves. */
    public static long skynetExpected(int size) {
        return (long) size * (size - 1) / 2;
    }

    /** Throws a loud error when a body computed the wrong answer. */
    public static void verify(String bench, long got, long expected) {
        if (got != expected) {
            throw new AssertionError(bench + ": WRONG RESULT " + got + ", expected " + expected);
        }
    }
}
