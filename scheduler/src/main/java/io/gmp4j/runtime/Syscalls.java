package io.gmp4j.runtime;

/**
 * Go's {@code entersyscall}/{@code exitsyscall} and the cooperative safe points: how a goroutine
 * gives up its P around a blocking call, and how it yields when sysmon asks.
 *
 * <p>Protocol (see {@link P} for the status word): entering a syscall moves the caller's P
 * {@code USER -> SYSCALL} under the M's epoch; from there the first CAS wins, either the
 * goroutine's fast exit ({@code SYSCALL -> USER}) or sysmon's retake ({@code SYSCALL -> IDLE},
 * then {@code handoffp}). The token handed back names the P and the epoch, which together are
 * unique, so a goroutine that parked inside the call and resumed elsewhere cannot take back a
 * P that has since lived another life.
 */
final class Syscalls {
    /** Low bits of a token hold the P id + 1; the rest the epoch. */
    private static final int TOKEN_PID_BITS = 20;

    private Syscalls() {
    }

    /** The P stays until sysmon retakes it (Go's entersyscall). */
    static final int KEEP_P = 0;
    /** The call blocks long: hand the P off now (Go's entersyscallblock). */
    static final int HANDOFF = 1;
    /**
     * The call is a poll goroutine's blocking turn that an M asked for because it found nothing
     * to run: release the P to the idle list unless work arrived meanwhile ({@link Scheduler#releaseIdle}).
     */
    static final int RELEASE_IDLE = 2;

    static long enter(Scheduler s, int mode) {
        M m = Carrier.currentM();
        if (m == null || m.sched != s || m.curTask == null) {
            return 0;
        }
        P p = m.p;
        if (p == null) {
            return 0;
        }
        long e = m.epoch;
        p.incSyscalltick();
        if (!p.casStatus(P.pack(e, P.USER), P.pack(e, P.SYSCALL))) {
            long st = p.status();
            if (P.epoch(st) != e || P.state(st) == P.IDLE) {
                m.p = null; // sysmon already handed it off
            }
            return 0;
        }
        s.nsyscall.incrementAndGet();
        if (mode != KEEP_P && p.casStatus(P.pack(e, P.SYSCALL), P.pack(e, P.IDLE))) {
            if (mode == HANDOFF) {
                // Go's entersyscallblock: the call is known to block long; hand the P off now.
                SchedTrace.handoff(s, p, io.gmp4j.runtime.events.HandoffEvent.SYSCALL_BLOCK);
                s.handoffp(p);
            } else {
                s.releaseIdle(p);
            }
        }
        markSyscall(true);
        return e << TOKEN_PID_BITS | (p.id + 1);
    }

    /** Marks the calling goroutine as inside a syscall, for the goroutine dump. */
    private static void markSyscall(boolean in) {
        G g = G.current();
        if (g != null) {
            g.inSyscall = in;
        }
    }

    /**
     * Fast path: take the old P back by CAS. Slow path: take an idle P, else yield the goroutine
     * to the global queue (its M then stops).
     */
    static void exit(Scheduler s, long token) {
        if (token == 0) {
            return;
        }
        markSyscall(false);
        s.nsyscall.decrementAndGet();
        M m = Carrier.currentM();
        if (m == null || m.sched != s) {
            return;
        }
        long epoch = token >>> TOKEN_PID_BITS;
        int pid = (int) (token & ((1 << TOKEN_PID_BITS) - 1)) - 1;
        P p = m.p;
        if (p != null && p.id == pid && m.epoch == epoch
                && p.casStatus(P.pack(epoch, P.SYSCALL), P.pack(epoch, P.USER))) {
            p.incSyscalltick();
            return; // fast path
        }
        if (p != null && p.status() == P.pack(m.epoch, P.USER)) {
            // The goroutine parked inside the call and now runs with a P again (this M took
            // the P back when it unmounted, or another M runs it).
            return;
        }
        m.p = null;
        P pp = s.pidlegetLocked();
        if (pp != null) {
            s.acquirep(m, pp);
            pp.srStatus(P.pack(m.epoch, P.USER));
            return;
        }
        // No P: queue the goroutine globally; the M stops once the yield unmounts it. A poll
        // goroutine back from a blocking turn first hands over what its turn readied, as Go's
        // findRunnable injects netpoll's list even when it finds no P: they must not wait until
        // this goroutine gets a P again (up to a busy P's 61st tick).
        G g = G.current();
        if (g != null && g.turnBatch != null) {
            SchedTrace.netpollBatch(s, -1, g.turnBatch.size(), io.gmp4j.runtime.events.NetpollBatchEvent.SYSCALL_EXIT);
            s.injectglist(g.turnBatch);
        }
        m.goschedGlobal = true;
        SchedLatency.yield();
    }

    /** The safe point of the goroutine running on {@code m}. */
    static void safePoint(M m) {
        if (m.curTask == null || m.locks > 0 || !Thread.currentThread().isVirtual()) {
            return;
        }
        P p = m.p;
        if (p == null || p.preempt || p.status() != P.pack(m.epoch, P.USER)) {
            if (p != null && P.state(p.status()) == P.SYSCALL) {
                return;
            }
            m.goschedGlobal = true;
            SchedLatency.yield();
        }
    }

    /** Go's Gosched: the caller yields and queues globally. */
    static void gosched() {
        M m = Carrier.currentM();
        if (m != null && m.curTask != null && Thread.currentThread().isVirtual()) {
            m.goschedGlobal = true;
        }
        SchedLatency.yield();
    }
}
