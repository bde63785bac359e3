package io.gmp4j.runtime;

import java.util.ArrayList;
import java.util.List;

/**
 * The live goroutines of a runtime: Go's {@code allgs}, for the goroutine dump and
 * {@code NumGoroutine}.
 *
 * <p>Striped intrusive doubly-linked lists: a goroutine is linked into the stripe of its id when
 * it starts and unlinked when it ends, each under that stripe's spin lock, so starting and
 * ending a goroutine costs two uncontended lock round-trips and no allocation. (A
 * {@code ConcurrentHashMap} here cost about 60 ns per goroutine more, measured by the
 * {@code floor-spawn-registry-*} benchmarks.) Finding the current goroutine does not go through
 * the registry: see {@link G#current()}.
 */
final class GoroutineRegistry {
    private static final int STRIPES = 64; // a power of two; more than any realistic GOMAXPROCS contention

    private final Stripe[] stripes = new Stripe[STRIPES];

    private static final class Stripe {
        final SpinLock lock = new SpinLock();
        G head;
        int count;
        // pad the stripes apart so two Ps adding at once do not share a cache line
        long p1, p2, p3, p4, p5, p6, p7, p8;
    }

    GoroutineRegistry() {
        for (int i = 0; i < STRIPES; i++) {
            stripes[i] = new Stripe();
        }
    }

    void add(G g) {
        Stripe s = stripes[(int) g.goid & (STRIPES - 1)];
        s.lock.lock();
        try {
            g.regNext = s.head;
            if (s.head != null) {
                s.head.regPrev = g;
            }
            s.head = g;
            s.count++;
        } finally {
            s.lock.unlock();
        }
    }

    void remove(G g) {
        Stripe s = stripes[(int) g.goid & (STRIPES - 1)];
        s.lock.lock();
        try {
            if (g.regPrev != null) {
                g.regPrev.regNext = g.regNext;
            } else {
                s.head = g.regNext;
            }
            if (g.regNext != null) {
                g.regNext.regPrev = g.regPrev;
            }
            g.regPrev = null;
            g.regNext = null;
            s.count--;
        } finally {
            s.lock.unlock();
        }
    }

    /** Live goroutines; exact when nothing starts or ends meanwhile. */
    long count() {
        long n = 0;
        for (Stripe s : stripes) {
            n += s.count; // racy read of an int: a hint per stripe, summed
        }
        return n;
    }

    List<G> snapshot() {
        List<G> all = new ArrayList<>();
        for (Stripe s : stripes) {
            s.lock.lock();
            try {
                for (G g = s.head; g != null; g = g.regNext) {
                    all.add(g);
                }
            } finally {
                s.lock.unlock();
            }
        }
        return all;
    }
}
