package agenttest;

/**
 * One loop shape a method, for {@code ArrayLoopsTest}: the methods named {@code skip*} close a
 * leaf loop counted up to an array's length (no check expected at their back-edge), those named
 * {@code check*} a loop that must keep its check (the count a method expects is in its name's
 * test, not here). Each terminates on the inputs the test gives and returns a value that
 * depends on every iteration.
 */
public final class LoopShapes {
    private LoopShapes() {
    }

    public static long skipSum(int[] a) {
        long s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i];
        }
        return s;
    }

    public static long skipEnhancedFor(int[] a) {
        long s = 0;
        for (int x : a) {
            s += x * 3L;
        }
        return s;
    }

    public static long skipDoWhile(int[] a) {
        long s = 0;
        int i = 0;
        do {
            s = s * 31 + a[i];
            i++;
        } while (i < a.length);
        return s;
    }

    public static long skipBranchInside(int[] a, int[] b) {
        long s = 0;
        for (int i = 0; i < a.length; i++) {
            if (a[i] > 2) {
                b[i] = a[i] * 7;
            } else {
                s -= a[i];
            }
        }
        return s + b[b.length - 1];
    }

    public static long checkCallInside(int[] a) {
        long s = 0;
        for (int i = 0; i < a.length; i++) {
            s += Math.abs(a[i] - 4);
        }
        return s;
    }

    public static long checkBoundIsAParameter(int[] a, int n) {
        long s = 0;
        for (int i = 0; i < n; i++) {
            s += a[i % a.length];
        }
        return s;
    }

    public static long checkStepOfTwo(int[] a) {
        long s = 0;
        for (int i = 0; i < a.length; i += 2) {
            s += a[i];
        }
        return s;
    }

    public static long checkIndexStored(int[] a) {
        long s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i];
            if (a[i] == 5) {
                i = a.length; // jumps out by writing the index
            }
        }
        return s;
    }

    public static long checkArrayReassigned(int[] a) {
        int[] shorter = {1};
        long s = 0;
        for (int i = 0; i < a.length; i++) {
            s += a[i];
            if (s > 6) {
                a = shorter;
            }
        }
        return s;
    }

    public static long checkContinue(int[] a) {
        long s = 0;
        int i = 0;
        while (i < a.length) {
            int x = a[i++];
            if (x % 2 == 0) {
                continue;
            }
            s += x;
        }
        return s;
    }

    public static long checkLengthLocalRewritten(int[] a) {
        int n = a.length;
        long s = 0;
        for (int i = 0; i < n; i++) {
            s += a[i];
        }
        n = 3;
        return s + n;
    }

    /** The bound is an array's length, stored again inside the loop: it could grow with the index. */
    public static long checkLengthStoredInside(int[] a) {
        int n = a.length;
        long s = 0;
        for (int i = 0; i < n; i++) {
            if (i < 5) {
                int[] b = new int[i + 2];
                n = b.length;
            }
            s += i;
        }
        return s;
    }

    /** Each iteration zeroes an array as long as {@code a}: work that grows with it. */
    public static long checkAllocationInside(int[] a) {
        long s = 0;
        for (int i = 0; i < a.length; i++) {
            long[] scratch = new long[a.length];
            s += scratch.length + a[i];
        }
        return s;
    }

    /** The bound is not only a length: the two values of the ternary join at its store. */
    public static long checkTernaryLength(int[] a) {
        int n = a.length > 5 ? 7 : a.length;
        long s = 0;
        for (int i = 0; i < n; i++) {
            s += a[i];
        }
        return s;
    }

    public static long checkLongIndex(int[] a) {
        long s = 0;
        for (long i = 0; i < a.length; i++) {
            s += a[(int) i];
        }
        return s;
    }

    public static long checkHandlerInside(int[] a) {
        long s = 0;
        for (int i = 0; i < a.length; i++) {
            try {
                s += 12 / (a[i] - 3);
            } catch (ArithmeticException e) {
                s -= 100;
            }
        }
        return s;
    }

    /** The outer loop runs a.length squared iterations: it keeps its check (the inner one has none). */
    public static long checkLoopInside(int[] a) {
        long s = 0;
        for (int i = 0; i < a.length; i++) {
            for (int j = 0; j < a.length; j++) {
                s += (long) a[i] * a[j];
            }
        }
        return s;
    }

    public static long checkMonitorInside(int[] a) {
        long s = 0;
        Object lock = new Object();
        for (int i = 0; i < a.length; i++) {
            synchronized (lock) {
                s += a[i];
            }
        }
        return s;
    }

    /** The outer loop keeps its check; the inner one, over the array, has none. */
    public static long nestedOneCheck(int[] a, int reps) {
        long s = 0;
        for (int r = 0; r < reps; r++) {
            for (int i = 0; i < a.length; i++) {
                s += a[i] ^ r;
            }
        }
        return s;
    }
}
