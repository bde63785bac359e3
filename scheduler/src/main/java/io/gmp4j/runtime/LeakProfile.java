package io.gmp4j.runtime;

import io.gmp4j.LeakedGoroutine;
import io.gmp4j.MemStats;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Go 1.26's goroutine leak profile ({@code GOEXPERIMENT=goroutineleakprofile}) on the JVM's own
 * reachability: a goroutine blocked for ever because nothing that could wake it is reachable
 * any more.
 *
 * <p><b>Why the JVM can tell.</b> A parked virtual thread is no GC root: its stack is a heap
 * object reachable only through its {@code Thread}, and that only from whoever will unpark it
 * (a channel's queue of waiters through its sudog and {@link Waiter}, a timer, a mutex's wait
 * list, the network poller). gmp4j's own structures hold a parked goroutine nowhere else: a P's
 * run queues clear the slots they run from, an M forgets its task when it unmounts, the JDK
 * thread container a runtime starts goroutines in tracks nothing. The one other holder is the
 * goroutine registry; in leak-profile mode its entries are {@link Ref}s, weak references. So a
 * goroutine parked on a channel that no running goroutine, no thread and no static field can
 * reach any more is unreachable as a whole (its stack, the channel, the channel's waiters),
 * the collector clears its entry, and an entry cleared while its goroutine had not ended names
 * a leaked goroutine. Go's detector marks from the runnable goroutines only; the JVM marks from
 * every root: the two agree on goroutines blocked on primitives that only other blocked
 * goroutines can reach.
 *
 * <p><b>What it finds.</b> Goroutines blocked on a channel send, receive or select, a
 * {@code sync} Mutex, RWMutex, WaitGroup, Semaphore or Once, or any gmp4j wait, whose
 * primitive is reachable from nothing but other such goroutines, including cycles of them; also
 * a goroutine parked with {@code LockSupport.park} where no one holds its thread. <b>What it
 * does not:</b> a goroutine blocked on a channel still reachable from a static field, a live
 * object, a running or runnable goroutine, or a platform thread (the JVM cannot know nobody
 * will use it); one in a timed wait (a select with a timeout, a sleep: the timer will wake it);
 * one waiting on the network; one blocked on a Java monitor or in {@code Object.wait} (the JVM
 * holds those threads itself). A task slot a thief copied out of another P's run queue is not
 * cleared until that P refills it, so with several Ps a goroutine that was stolen just before
 * it leaked may be reported only after that P ran more work.
 *
 * <p><b>What a report knows.</b> The collector frees a leaked goroutine, stack and all (unlike
 * Go, whose leaked goroutines keep their memory), so a report shows what the entry kept: the id,
 * the wait reason of its last gmp4j park (null when it leaked in another kind of wait), when
 * that wait began (the runtime's coarse clock, 10 ms), the class of the function it was started
 * with, and its stack when the report that found it had seen it parked before the collection
 * (a goroutine that leaked earlier was freed by an ordinary collection and has no stack).
 * A leaked goroutine still counts in {@code numGoroutine}, as in Go, and is reported again by
 * every later report.
 *
 * <p><b>Cost.</b> Off by default, as in Go 1.26. On: one weak reference per goroutine (48
 * bytes, and the collector's reference processing), a few stores per park; a report walks the
 * registry, takes the stack of every parked goroutine and runs a full collection.
 */
public final class LeakProfile {
    private LeakProfile() {
    }

    /**
     * The registry's weak entry for one goroutine. What a report prints lives here, outside
     * the goroutine, because a leaked goroutine is gone by the time it is found.
     */
    static final class Ref extends WeakReference<G> {
        final long goid;
        /** The class of the goroutine's function: "created by". */
        final Class<?> fnClass;
        /** Set when the goroutine ends (by its own thread, before the thread can be collected). */
        volatile boolean dead;
        /** The reason of the gmp4j park the goroutine is in or last was in, null while it runs. */
        String reason;
        long since;
        /** Parks so far; the stack below belongs to park number {@link #stackPark}. */
        int parks;
        int stackPark;
        volatile StackTraceElement[] stack;

        Ref(G g) {
            super(g);
            this.goid = g.goid;
            Runnable f = g.fn;
            this.fnClass = f == null ? null : f.getClass();
        }

        /** The goroutine enters a gmp4j park (its own thread). */
        void parking(String why, long sinceNanos) {
            parks++;
            reason = why;
            since = sinceNanos;
        }

        /** The goroutine's park returned (its own thread). */
        void resumed() {
            reason = null;
        }
    }

    /** The weak entry of a goroutine about to start (registry mode "leak profile"). */
    static Ref register(G g) {
        Ref r = new Ref(g);
        g.leakRef = r;
        return r;
    }

    /**
     * The report of {@code s}: every goroutine of the runtime that is blocked for ever, in id
     * order, each once. Runs a full collection ({@link MemStats#gc}).
     *
     * @throws IllegalStateException when the runtime does not keep the leak profile, or when
     *     the JVM ignores {@code System.gc()} ({@code -XX:+DisableExplicitGC})
     */
    public static List<LeakedGoroutine> report(Scheduler s) {
        GoroutineRegistry reg = s.allgs;
        if (reg == null || !reg.weak) {
            throw new IllegalStateException("gmp4j runtime '" + s.name + "' keeps no leak profile: build it with "
                    + "GoRuntime.builder().leakProfile(true), or run with -D" + io.gmp4j.Tunable.LEAKPROFILE.property() + "=true");
        }
        captureStacks(reg);
        collect();
        return collected(reg, s.coarseNanos);
    }

    /**
     * The goroutine dump's part for the leaked goroutines the collector has freed so far (none
     * is collected here): one block each, {@code goroutine 17 [chan receive, leaked]:} and the
     * stack the entry kept. Returns how many.
     */
    static int appendLeaked(Scheduler s, StringBuilder sb) {
        GoroutineRegistry reg = s.allgs;
        if (reg == null || !reg.weak) {
            return 0;
        }
        List<LeakedGoroutine> leaked = collected(reg, s.coarseNanos);
        for (LeakedGoroutine l : leaked) {
            sb.append(l).append('\n');
        }
        return leaked.size();
    }

    /**
     * The entries cleared while their goroutine had not ended (collected while blocked), in id
     * order, each once: a registry read racing a sweep may meet an entry twice.
     */
    private static List<LeakedGoroutine> collected(GoroutineRegistry reg, long now) {
        List<LeakedGoroutine> out = new ArrayList<>();
        Set<Long> seen = new HashSet<>();
        for (Ref r : reg.refs()) {
            if (r.refersTo(null) && !r.dead && seen.add(r.goid)) {
                out.add(describe(r, now));
            }
        }
        out.sort(Comparator.comparingLong(LeakedGoroutine::id));
        return out;
    }

    /** The stack of each parked goroutine, kept on its entry for the report should it be collected. */
    private static void captureStacks(GoroutineRegistry reg) {
        for (Ref r : reg.refs()) {
            G g = r.get();
            if (g == null || g.dead || g.thread == null) {
                continue;
            }
            int park = r.parks;
            if (r.reason == null && g.thread.getState() != Thread.State.WAITING) {
                continue; // running, runnable, or in a timed wait
            }
            StackTraceElement[] st = g.thread.getStackTrace();
            if (r.parks == park) { // still the same wait: the stack is this wait's
                r.stackPark = park;
                r.stack = st;
            }
        }
    }

    /**
     * A full collection, checked: a weak reference to a fresh object must be cleared after it,
     * or the JVM ignored {@code System.gc()} and the report would miss goroutines.
     */
    private static void collect() {
        WeakReference<Object> sentinel = new WeakReference<>(new Object());
        MemStats.gc();
        if (!sentinel.refersTo(null)) {
            MemStats.gc(); // a concurrent collector may have started its cycle before the sentinel
        }
        if (!sentinel.refersTo(null)) {
            throw new IllegalStateException("the leak profile needs System.gc() to run a collection "
                    + "(this JVM ignores it: -XX:+DisableExplicitGC?)");
        }
    }

    private static LeakedGoroutine describe(Ref r, long now) {
        StackTraceElement[] st = r.stack;
        List<StackTraceElement> stack = st != null && r.stackPark == r.parks ? Arrays.asList(st) : List.of();
        String reason = r.reason;
        long waited = reason == null ? 0 : Math.max(0, now - r.since);
        return new LeakedGoroutine(r.goid, reason, java.time.Duration.ofNanos(waited), createdBy(r.fnClass), stack);
    }

    /** The function's class, without the suffix the JVM gives a lambda's hidden class. */
    private static String createdBy(Class<?> c) {
        if (c == null) {
            return null;
        }
        String n = c.getName();
        int lambda = n.indexOf("$$Lambda");
        if (lambda >= 0) {
            return n.substring(0, lambda);
        }
        int slash = n.indexOf('/');
        return slash < 0 ? n : n.substring(0, slash);
    }
}
