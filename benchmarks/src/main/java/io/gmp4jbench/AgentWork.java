package io.gmp4jbench;

/**
 * The loops of the {@code hog} and {@code agent-cost} benchmarks, in a package of their own
 * outside {@code io.gmp4j.} (whose classes the agent never instruments): the
 * {@code gmp4j-agent} child JVMs run with {@code -javaagent:gmp4j-agent.jar=io.gmp4jbench.}.
 */
public final class AgentWork {
    private AgentWork() {
    }

    /** The hog: counts until {@code System.nanoTime()} reaches {@code end}; no call into gmp4j. */
    public static long spin(long end) {
        long n = 0;
        while (System.nanoTime() - end < 0) {
            n++;
        }
        return n;
    }

    /** Recursive fib: no loop, so no back-edge and nothing inserted. */
    public static long fib(int n) {
        return n < 2 ? n : fib(n - 1) + fib(n - 2);
    }

    /** A tight loop the JIT vectorises: the sum of an array. */
    public static long arraySum(int[] a) {
        long s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i];
        }
        return s;
    }

    /** A tight loop with a dependency chain (no vectorising): a polynomial hash of an array. */
    public static long arrayHash(int[] a) {
        long h = 1;
        for (int i = 0; i < a.length; i++) {
            h = h * 31 + a[i];
        }
        return h;
    }
}
