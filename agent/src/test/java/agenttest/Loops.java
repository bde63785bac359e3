package agenttest;

import java.util.ArrayList;
import java.util.List;

/**
 * Loops of every shape javac emits (for, while, do-while, labelled continue and break, a loop
 * around a switch, a loop around try/catch, nested loops with a long counter, a loop in a
 * constructor before and after the super call's arguments) plus a loop-free recursion: the
 * workload whose results must be the same instrumented or not.
 */
public final class Loops {
    private final long seed;

    public Loops(int n) {
        long s = 0;
        for (int i = 0; i < n; i++) {
            s = s * 31 + i;
        }
        this.seed = s;
    }

    /** Every loop below, folded into one line of results. */
    public static String all(int scale) {
        List<String> out = new ArrayList<>();
        out.add("ctor=" + new Loops(scale).seed);
        out.add("sieve=" + sieve(scale * 100));
        out.add("collatz=" + collatz(scale * 10));
        out.add("labelled=" + labelled(scale));
        out.add("switch=" + switchLoop(scale * 50));
        out.add("catch=" + catchLoop(scale * 20));
        out.add("nested=" + nested(scale));
        out.add("array=" + arraySum(scale * 1000));
        out.add("fib=" + fib(20));
        out.add("strings=" + strings(scale));
        return String.join(" ", out);
    }

    static int sieve(int n) {
        boolean[] composite = new boolean[n + 1];
        int count = 0;
        for (int i = 2; i <= n; i++) {
            if (!composite[i]) {
                count++;
                for (long j = (long) i * i; j <= n; j += i) {
                    composite[(int) j] = true;
                }
            }
        }
        return count;
    }

    static long collatz(int n) {
        long steps = 0;
        for (int i = 1; i <= n; i++) {
            long x = i;
            do {
                x = (x & 1) == 0 ? x / 2 : 3 * x + 1;
                steps++;
            } while (x != 1);
        }
        return steps;
    }

    static long labelled(int n) {
        long acc = 0;
        outer:
        for (int i = 0; i < n; i++) {
            for (int j = 0; j < n; j++) {
                if ((i * j) % 7 == 3) {
                    continue outer;
                }
                if (i + j > n + n / 2) {
                    break outer;
                }
                acc += (long) i * j;
            }
        }
        return acc;
    }

    static long switchLoop(int n) {
        long acc = 0;
        int state = 0;
        for (int i = 0; i < n; i++) {
            switch (state) {
                case 0 -> {
                    acc += i;
                    state = 2;
                }
                case 1 -> {
                    acc ^= i;
                    state = 0;
                }
                case 2 -> {
                    acc -= i / 3;
                    state = 3;
                }
                default -> {
                    acc *= 3;
                    state = 1;
                }
            }
        }
        return acc;
    }

    static int catchLoop(int n) {
        int caught = 0;
        int i = 0;
        while (i < n) {
            try {
                if (i % 3 == 0) {
                    throw new IllegalStateException("x" + i);
                }
                caught += i;
            } catch (IllegalStateException e) {
                caught -= e.getMessage().length();
            } finally {
                i++;
            }
        }
        return caught;
    }

    static long nested(int n) {
        long acc = 1;
        for (long a = 0; a < n; a++) {
            for (long b = a; b < n; b++) {
                for (long c = b; c < n; c++) {
                    acc = acc * 6364136223846793005L + a + b * c;
                }
            }
        }
        return acc;
    }

    /** The tight array loop of the agent's cost figure. */
    public static long arraySum(int n) {
        int[] a = new int[n];
        for (int i = 0; i < n; i++) {
            a[i] = i * 7 + 1;
        }
        long s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i];
        }
        return s;
    }

    /** A recursion without loops: no back-edge, no check. */
    public static long fib(int n) {
        return n < 2 ? n : fib(n - 1) + fib(n - 2);
    }

    static String strings(int n) {
        StringBuilder sb = new StringBuilder();
        int i = 0;
        while (true) {
            if (i == n) {
                break;
            }
            sb.append((char) ('a' + i % 26));
            i++;
        }
        return sb.reverse().toString();
    }
}
