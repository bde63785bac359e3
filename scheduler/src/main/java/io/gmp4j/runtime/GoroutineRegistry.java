package io.gmp4j.runtime;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.LongSupplier;

/**
 * The live goroutines of a runtime, for the goroutine dump and {@code checkdead}: Go's
 * {@code allgs}. ({@code NumGoroutine} is a counter kept beside it.)
 *
 * <p>One append-only segment per M, written only by the goroutine code running on that M (one at
 * a time), plus one locked segment for goroutines started from other threads. A goroutine is
 * appended where it is started and, when it ends, only marks its own G dead; a segment drops
 * its dead entries when it fills up, in one sequential sweep by its owner. So starting and
 * ending a goroutine write nothing shared and touch no other goroutine's memory: with a million
 * goroutines alive (skynet), a shared map or striped tables cost 60-90 ns per goroutine in cache
 * misses (measured with {@code ./gmp4j bench skynet} and {@code -Dgmp4j.registry=false}).
 * Readers walk the segments racily: a dump taken while goroutines start and end may miss or
 * repeat one; {@code checkdead} reads them only when no M runs.
 */
final class GoroutineRegistry {
    /**
     * Leak-profile mode ({@link LeakProfile}): entries are weak {@link LeakProfile.Ref}s instead
     * of the Gs themselves, so the registry keeps no parked goroutine reachable. Otherwise an
     * entry is its G.
     */
    final boolean weak;
    /** Segments of every M plus the shared one; appended when an M is created. */
    private final List<Segment> segments = new CopyOnWriteArrayList<>();
    private final Segment shared = new Segment();
    private final SpinLock sharedLock = new SpinLock();

    static final class Segment {
        private static final VarHandle SIZE;

        static {
            try {
                SIZE = MethodHandles.lookup().findVarHandle(Segment.class, "size", int.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        /** Each entry is a {@link G}, or in leak-profile mode its {@link LeakProfile.Ref}. */
        volatile Object[] items = new Object[256];
        /** Entries in use: written with release stores after the entry, read with acquire. */
        private int size;
        /** Entries appended since the last sweep. Single writer. */
        private int appendedSinceSweep;

        /**
         * Appends {@code g}. Single writer. When full, sweeps out the dead entries if most of the
         * goroutines ever recorded are gone ({@code live} gives the runtime's live count, an
         * upper bound of this segment's live entries; read only when full), else doubles:
         * amortised O(1) either way. A segment holds at most about twice the runtime's peak
         * live count.
         */
        void append(Object g, LongSupplier live) {
            Object[] a = items;
            int n = size;
            if (n == a.length) {
                if (live.getAsLong() < n / 2) {
                    n = sweep(a, n);
                }
                if (n > a.length / 2) {
                    a = Arrays.copyOf(a, a.length * 2);
                    items = a;
                }
            }
            a[n] = g;
            appendedSinceSweep++;
            SIZE.setRelease(this, n + 1); // store-release: publishes the entry to readers
        }

        /**
         * Sweeps out the dead entries if at least half of the entries are dead ({@code live},
         * the runtime's live count, bounds this segment's live entries) or were appended since
         * the last sweep: either way the sweep's cost is paid for by entries that arrived or
         * leave, so it is amortised O(1) per append however often this is called. Single
         * writer; called when an M goes idle.
         */
        void sweepIfStale(long live) {
            if (isStale(live)) {
                sweep(items, size);
            }
        }

        /** Whether {@link #sweepIfStale} would sweep. Exact for the writer; a hint for others. */
        boolean isStale(long live) {
            int n = size;
            return n > 0 && (appendedSinceSweep * 2 >= n || live < n / 2);
        }

        // Sequential pass over the entries (and the Gs, allocated in the same order) that
        // squeezes out the dead ones. Single writer.
        private int sweep(Object[] a, int n) {
            int j = 0;
            for (int i = 0; i < n; i++) {
                Object e = a[i];
                if (!dead(e)) {
                    a[j++] = e;
                }
            }
            Arrays.fill(a, j, n, null);
            SIZE.setRelease(this, j);
            appendedSinceSweep = 0;
            return j;
        }

        void collect(List<G> out) {
            Object[] a = items;
            int n = Math.min((int) SIZE.getAcquire(this), a.length);
            for (int i = 0; i < n; i++) {
                G g = a[i] instanceof LeakProfile.Ref r ? r.get() : (G) a[i];
                if (g != null && !g.dead) {
                    out.add(g);
                }
            }
        }

        /** The weak entries of a leak-profile registry (see {@link #collect} for the racy read). */
        void collectRefs(List<LeakProfile.Ref> out) {
            Object[] a = items;
            int n = Math.min((int) SIZE.getAcquire(this), a.length);
            for (int i = 0; i < n; i++) {
                if (a[i] instanceof LeakProfile.Ref r && !r.dead) {
                    out.add(r);
                }
            }
        }
    }

    /** An entry that may be dropped: its goroutine ended. A leaked goroutine's cleared entry stays. */
    private static boolean dead(Object e) {
        return e instanceof LeakProfile.Ref r ? r.dead : ((G) e).dead;
    }

    GoroutineRegistry(boolean weak) {
        this.weak = weak;
        segments.add(shared);
    }

    /** A new segment for a new M. */
    Segment newSegment() {
        Segment s = new Segment();
        segments.add(s);
        return s;
    }

    /** Records {@code g}, started by code running on {@code m} (null: another thread). */
    void add(M m, G g, LongSupplier live) {
        Object e = weak ? LeakProfile.register(g) : g;
        if (m != null) {
            m.allgs.append(e, live);
            return;
        }
        sharedLock.lock();
        try {
            shared.append(e, live);
        } finally {
            sharedLock.unlock();
        }
    }

    /**
     * Called by an M going idle: sweeps its own segment, and the shared one, when enough was
     * appended since their last sweep ({@link Segment#sweepIfStale}).
     */
    void sweepIdle(M m, LongSupplier liveCount) {
        long live = liveCount.getAsLong();
        if (m.allgs != null) {
            m.allgs.sweepIfStale(live);
        }
        // A racy look first: stopm runs often in a network server, the shared segment rarely
        // needs a sweep, and its lock is shared with every goroutine started off an M.
        if (shared.isStale(live)) {
            sharedLock.lock();
            try {
                shared.sweepIfStale(live);
            } finally {
                sharedLock.unlock();
            }
        }
    }

    /** {@code g} has ended. */
    void remove(G g) {
        g.dead = true;
        LeakProfile.Ref r = g.leakRef;
        if (r != null) {
            r.dead = true;
        }
    }

    List<G> snapshot() {
        List<G> all = new ArrayList<>();
        for (Segment s : segments) {
            s.collect(all);
        }
        return all;
    }

    /** The weak entries of every live or leaked goroutine; empty unless in leak-profile mode. */
    List<LeakProfile.Ref> refs() {
        List<LeakProfile.Ref> all = new ArrayList<>();
        if (weak) {
            for (Segment s : segments) {
                s.collectRefs(all);
            }
        }
        return all;
    }

    /**
     * Goroutines parked in G.park, and in leak-profile mode the leaked ones too (collected
     * without having ended: asleep for ever). Exact only while nothing runs (checkdead's
     * situation).
     */
    long countWaiting() {
        long n = 0;
        for (G g : snapshot()) {
            if (g.isWaiting()) {
                n++;
            }
        }
        for (LeakProfile.Ref r : refs()) {
            if (r.refersTo(null)) {
                n++;
            }
        }
        return n;
    }
}
