package io.gmp4j.runtime;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The live goroutines of a runtime: Go's {@code allgs}, for the goroutine dump and
 * {@code NumGoroutine}.
 *
 * <p>Striped slot tables: a goroutine takes a free slot in the stripe of its id when it starts
 * and frees it when it ends, each under that stripe's spin lock. Starting and ending touch only
 * the stripe's arrays and the G itself, never another goroutine's memory: with a million
 * goroutines alive (skynet runs breadth-first), a linked list's neighbour updates and a
 * {@code ConcurrentHashMap}'s bins were cache misses that cost more than the scheduling itself
 * (measured with the {@code floor-spawn-registry-*} benchmarks and JFR). Finding the current
 * goroutine does not go through the registry: see {@link G#current()}.
 */
final class GoroutineRegistry {
    private static final int STRIPES = 64; // a power of two

    private final Stripe[] stripes = new Stripe[STRIPES];

    private static final class Stripe {
        final SpinLock lock = new SpinLock();
        G[] slots = new G[64];
        int[] free = new int[64]; // stack of free slot indexes below {@code used}
        int nfree;
        int used; // slots[0..used) have been handed out at least once
        int count;
        // keep two stripes' hot fields off one cache line
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
            int i;
            if (s.nfree > 0) {
                i = s.free[--s.nfree];
            } else {
                if (s.used == s.slots.length) {
                    s.slots = Arrays.copyOf(s.slots, s.used * 2);
                    s.free = Arrays.copyOf(s.free, s.used * 2);
                }
                i = s.used++;
            }
            s.slots[i] = g;
            g.regSlot = i;
            s.count++;
        } finally {
            s.lock.unlock();
        }
    }

    void remove(G g) {
        Stripe s = stripes[(int) g.goid & (STRIPES - 1)];
        s.lock.lock();
        try {
            int i = g.regSlot;
            s.slots[i] = null;
            s.free[s.nfree++] = i;
            s.count--;
        } finally {
            s.lock.unlock();
        }
    }

    /** Live goroutines; exact when nothing starts or ends meanwhile. */
    long count() {
        long n = 0;
        for (Stripe s : stripes) {
            n += s.count; // racy read of an int per stripe: a snapshot, summed
        }
        return n;
    }

    /** Goroutines parked in G.park. Exact only while nothing runs (checkdead's situation). */
    long countWaiting() {
        long n = 0;
        for (Stripe s : stripes) {
            s.lock.lock();
            try {
                for (int i = 0; i < s.used; i++) {
                    G g = s.slots[i];
                    if (g != null && g.isWaiting()) {
                        n++;
                    }
                }
            } finally {
                s.lock.unlock();
            }
        }
        return n;
    }

    List<G> snapshot() {
        List<G> all = new ArrayList<>();
        for (Stripe s : stripes) {
            s.lock.lock();
            try {
                for (int i = 0; i < s.used; i++) {
                    if (s.slots[i] != null) {
                        all.add(s.slots[i]);
                    }
                }
            } finally {
                s.lock.unlock();
            }
        }
        return all;
    }
}
