package io.gmp4j.runtime;

import java.util.concurrent.atomic.LongAdder;

/**
 * Loop preemption: the check that the {@code gmp4j-agent} Java agent inserts at the loop
 * back-edges of the classes it instruments, so that a goroutine spinning in a loop that never
 * calls into gmp4j still gives way when sysmon asks (Go's preemption checks in function
 * prologues, before Go 1.14, made at back-edges here).
 *
 * <p>The fast path is {@link #poll}: one read of {@link #pending}, a word that is true while
 * some P of some runtime has a preempt request. Sysmon sets and clears it ({@link #publish},
 * once per round); a goroutine back from a back-edge yield clears it too when no other P of its
 * runtime was asked. Only when it is true does {@link #backEdge} look up the calling goroutine's
 * own P, and yield as {@code Go.gosched()} does when that P was asked (or its M lost it).
 *
 * <p>Where a yield is impossible the check goes on safely: a goroutine with a native frame on
 * its stack (an FFM upcall, a JNI callback, a class initializer) is pinned, and
 * {@code Thread.yield()} returns without unmounting it; the check sees that, counts it
 * ({@link #pinnedYields}), and does not try again until sysmon's next round. A goroutine
 * inside a {@code synchronized} block yields normally: since JDK 24 (JEP 491) a virtual
 * thread unmounts holding its monitors, which stay held until it resumes and exits them.
 * Loops inside JDK methods and native code are never instrumented and are not preempted here
 * (sysmon's handoff still moves their P away).
 */
public final class LoopPreempt {
    private LoopPreempt() {
    }

    /**
     * True while some P has a preempt request that its goroutine has not yet met. Written under
     * {@code LoopPreempt.class}'s lock (by sysmon, and by a goroutine that met its request); read by every instrumented
     * back-edge. Volatile for what it gives a loop: the read cannot be hoisted out of the loop
     * and eventually sees sysmon's store (opaque semantics would do). On x86 (TSO) a volatile
     * load is the same plain load as an opaque one; on AArch64 it is an {@code ldar} where
     * opaque is an {@code ldr}, but an opaque read needs a VarHandle call, which the
     * interpreter pays for at every back-edge until the loop is compiled. The slow path re-reads
     * the P's own volatile {@code preempt}: nothing is published through this word.
     */
    public static volatile boolean pending;

    /** The runtimes with a P that has a preempt request. Guarded by {@code LoopPreempt.class}. */
    private static final java.util.Set<Scheduler> ASKING = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    /** Sysmon rounds that saw a request; a pinned goroutine tries to yield once per round. */
    private static volatile int round;

    /** Sysmon's longest sleep while loops yield here: a time slice ends within 10-11 ms. */
    static final long MAX_SLEEP_IN_USE_NANOS = 1_000_000;
    /** Set at the first back-edge yield of this JVM; never cleared. */
    private static volatile boolean inUse;

    private static final LongAdder YIELDS = new LongAdder();
    private static final LongAdder PINNED = new LongAdder();
    /** The round in which this goroutine's yield failed (it was pinned); set only on failure. */
    private static final ThreadLocal<int[]> PINNED_ROUND = new ThreadLocal<>();

    /**
     * The inserted back-edge check: yields the calling goroutine if sysmon asked its P to give
     * way. Small enough that the JIT inlines it into the loop; the call to {@link #backEdge}
     * is taken only while a preempt request is pending.
     */
    public static void poll() {
        if (pending) { // volatile read: not hoisted out of the loop; a plain load on x86 (see pending)
            backEdge();
        }
    }

    /**
     * The slow path of {@link #poll}: yields to the global run queue if the calling goroutine's
     * P has a preempt request, or its M lost the P (sysmon handed it off). Returns at once on
     * threads that are not goroutines, inside {@code acquirem}, in a syscall, and when the
     * goroutine is pinned (a native frame on its stack: the yield does not happen).
     */
    public static void backEdge() {
        M m = Carrier.currentM();
        if (m == null || m.curTask == null || m.locks > 0 || !Thread.currentThread().isVirtual()) {
            return;
        }
        P p = m.p;
        if (p != null && !p.preempt && p.status() == P.pack(m.epoch, P.USER)) {
            return; // another P was asked, not this one
        }
        if (p != null && P.state(p.status()) == P.SYSCALL) {
            return; // Syscall.blocking: the P is sysmon's to retake, the goroutine keeps running
        }
        int r = round;
        int[] failed = PINNED_ROUND.get();
        if (failed != null && failed[0] == r) {
            return; // pinned in this round already: do not pay for a failed yield per iteration
        }
        m.goschedGlobal = true;
        Thread.yield();
        // A yield that happened unmounted this goroutine, and the self-resubmission consumed
        // goschedGlobal (Scheduler.execute) before it ran again, on this M or another. Still on
        // m with the flag set: the JDK refused to unmount a pinned continuation.
        if (Carrier.currentM() == m && m.goschedGlobal) {
            m.goschedGlobal = false;
            PINNED.increment();
            if (failed == null) {
                PINNED_ROUND.set(new int[]{r});
            } else {
                failed[0] = r;
            }
        } else {
            YIELDS.increment();
            if (!inUse) {
                inUse = true;
            }
            // Back on a P with a new time slice: the request was met. Unless another P of this
            // runtime has one, drop the pending word now rather than at sysmon's next round
            // (which a loaded machine delays), so that loops stop taking the slow path. A
            // request sysmon posts meanwhile may be dropped too: its next round posts it again.
            M back = Carrier.currentM();
            if (back != null) {
                settle(back.sched, true);
            }
        }
    }

    /**
     * Sysmon's end of round: whether any P of {@code s} has a request while running a
     * goroutine, folded into {@link #pending} over all runtimes. Returns whether that changed
     * (a request posted, or met).
     */
    static boolean publish(Scheduler s) {
        boolean now = anyAsked(s);
        if (now) {
            round++; // sysmon threads only; a lost increment just merges two rounds
        }
        return now ? ask(s) : settle(s, false);
    }

    /** A stopping sysmon's last word: its runtime asks no more. */
    static void retire(Scheduler s) {
        settle(s, false);
    }

    private static boolean anyAsked(Scheduler s) {
        for (P p : s.allp) {
            if (p.preempt && P.state(p.status()) == P.USER) {
                return true;
            }
        }
        return false;
    }

    private static synchronized boolean ask(Scheduler s) {
        boolean changed = ASKING.add(s);
        pending = true; // under the lock: transitions of two runtimes never cross
        return changed;
    }

    /** {@code s} asks no more (when {@code check}, only if none of its Ps has a request). */
    private static boolean settle(Scheduler s, boolean check) {
        if (!pending) {
            return false; // nobody asks: pending is written false only with ASKING empty
        }
        if (check && anyAsked(s)) {
            return false;
        }
        synchronized (LoopPreempt.class) {
            boolean changed = ASKING.remove(s);
            pending = !ASKING.isEmpty();
            return changed;
        }
    }

    /**
     * Sysmon's longest sleep: {@code max}, or 1 ms once instrumented loops yield in this JVM.
     * A request is posted at the first round at least 10 ms into a time slice; at the 10 ms
     * sleep that is up to 20 ms in, at 1 ms up to 11 ms (1,000 rounds a second while Ps run).
     */
    static long maxSleep(long max) {
        return inUse ? Math.min(max, MAX_SLEEP_IN_USE_NANOS) : max;
    }

    /** Yields made at back-edges (every runtime of this JVM). */
    public static long loopYields() {
        return YIELDS.sum();
    }

    /** Back-edge yields the JDK refused because the goroutine was pinned (a native frame). */
    public static long pinnedYields() {
        return PINNED.sum();
    }
}
