package io.gmp4j.runtime;

import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Go's {@code cheaprandn} for the choices the runtime and the channels make at random (a
 * select's poll order), and the seeded stream behind them in a runtime built with a seed
 * ({@code GoRuntime.Builder.seed}): there every choice comes from the seed, in the order the
 * runtime makes it, so that at GOMAXPROCS 1 the same program makes the same choices again (the
 * steal order of the Ms comes from the seed too: {@link #mRand}).
 *
 * <p>Unseeded, {@link #intn} is {@link ThreadLocalRandom}, after one volatile read (the count of
 * seeded runtimes, 0).
 */
public final class Fastrand {
    /** Runtimes built with a seed; while 0, no caller looks for one. */
    private static volatile int seededRuntimes;

    /** SplitMix64's state: one step per choice, in the order the choices are made. */
    private final AtomicLong state;
    private final long seed;

    Fastrand(long seed) {
        this.seed = seed;
        this.state = new AtomicLong(seed);
        synchronized (Fastrand.class) {
            seededRuntimes++;
        }
    }

    /** Its runtime closed: callers need not look for this stream any more. Once. */
    void retire() {
        synchronized (Fastrand.class) {
            seededRuntimes--;
        }
    }

    /** The seed this stream started from. */
    long seed() {
        return seed;
    }

    /**
     * A uniform choice in {@code [0, n)}: from the seed of the calling goroutine's runtime when
     * it has one, else from {@link ThreadLocalRandom}.
     */
    public static int intn(int n) {
        if (seededRuntimes != 0) {
            M m = Carrier.currentM();
            Fastrand r = m == null ? null : m.sched.seeded;
            if (r != null) {
                return r.next(n);
            }
        }
        return ThreadLocalRandom.current().nextInt(n);
    }

    private int next(int n) {
        long z = mix(state.addAndGet(0x9E3779B97F4A7C15L));
        return (int) Long.remainderUnsigned(z, n);
    }

    /** The first xorshift state of M {@code mid}: a function of the seed and the M alone. */
    int mRand(int mid) {
        int x = (int) mix(seed ^ (0xD1B54A32D192ED03L * (mid + 1)));
        return x == 0 ? 1 : x;
    }

    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
