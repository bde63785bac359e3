package io.gmp4j.runtime;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

// Field layout: JCTools-style superclass chain so that head (CASed by every thief) and tail
// (written by the owner only) live on different cache lines, away from the object header and
// from runnext. The JVM lays out superclass fields first, so the order below is the order in
// memory: pad | head | pad | tail | pad | runnext | pad.

abstract class RunQueueL0Pad {
    long p00, p01, p02, p03, p04, p05, p06, p07;
    long p08, p09, p10, p11, p12, p13, p14, p15;
}

abstract class RunQueueHead extends RunQueueL0Pad {
    /** Next slot to consume. Any thread advances it, only by CAS. */
    volatile int head;
}

abstract class RunQueueL1Pad extends RunQueueHead {
    long p10a, p11a, p12a, p13a, p14a, p15a, p16a, p17a;
    long p18a, p19a, p1aa, p1ba, p1ca, p1da, p1ea, p1fa;
}

abstract class RunQueueTail extends RunQueueL1Pad {
    /** Next slot to fill. Written only by the owner P's M. */
    volatile int tail;
}

abstract class RunQueueL2Pad extends RunQueueTail {
    long p20, p21, p22, p23, p24, p25, p26, p27;
    long p28, p29, p2a, p2b, p2c, p2d, p2e, p2f;
}

abstract class RunQueueNext extends RunQueueL2Pad {
    /**
     * runnext, if non-null, is a runnable task that was readied by the current task and should
     * run next instead of what is in the ring, inheriting the rest of the time slice.
     * Only the owner may set it to a non-null task; thieves may only CAS it to null.
     */
    volatile Runnable runnext;
}

abstract class RunQueueL3Pad extends RunQueueNext {
    long p30, p31, p32, p33, p34, p35, p36, p37;
    long p38, p39, p3a, p3b, p3c, p3d, p3e, p3f;
}

/**
 * A P's local run queue: Go's {@code p.runq}/{@code runqhead}/{@code runqtail}/{@code runnext}.
 *
 * <p>A bounded single-producer multi-consumer ring. Invariants:
 * <ul>
 *   <li>only the owner (the M holding the P, in a state that sysmon cannot retake) calls
 *       {@link #put}, {@link #get}, {@link #putBatch} and {@link #stealInto} as the thief side
 *       into its own ring; anyone may call {@link #grab} (steal) and the read-only methods;</li>
 *   <li>{@code 0 <= tail - head <= capacity}, with int overflow arithmetic as Go's uint32;</li>
 *   <li>a slot in {@code [head, tail)} holds a task published by the release-store of tail.</li>
 * </ul>
 * Accessor names carry the memory mode as in JCTools: {@code lv} load-volatile, {@code la}
 * load-acquire, {@code sr} store-release, {@code cas} compare-and-set.
 */
final class RunQueue extends RunQueueL3Pad {
    private static final VarHandle HEAD;
    private static final VarHandle TAIL;
    private static final VarHandle RUNNEXT;
    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(Runnable[].class);

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            HEAD = l.findVarHandle(RunQueueHead.class, "head", int.class);
            TAIL = l.findVarHandle(RunQueueTail.class, "tail", int.class);
            RUNNEXT = l.findVarHandle(RunQueueNext.class, "runnext", Runnable.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Go's {@code len(p.runq)}: 256. Tests use 4 to reach the edges quickly. */
    static final int DEFAULT_CAPACITY = 256;

    private final Runnable[] ring;
    private final int mask;

    RunQueue(int capacity) {
        this(capacity, true);
    }

    /**
     * @param stealable false when no thief can ever exist (a runtime with one P): then runnext
     *                  is the owner's alone and moves with plain stores instead of CASes
     */
    RunQueue(int capacity, boolean stealable) {
        if (capacity < 2 || Integer.bitCount(capacity) != 1) {
            throw new IllegalArgumentException("run queue capacity must be a power of two >= 2: " + capacity);
        }
        ring = new Runnable[capacity];
        mask = capacity - 1;
        this.stealable = stealable;
    }

    /** Whether other Ps may steal from this queue (GOMAXPROCS > 1). */
    private final boolean stealable;

    private boolean clearRunnext() {
        RUNNEXT.setOpaque(this, null);
        return true;
    }

    int capacity() {
        return ring.length;
    }

    // load-acquire: synchronizes with the CAS-release of consumers that freed slots
    private int laHead() {
        return (int) HEAD.getAcquire(this);
    }

    // load-acquire: synchronizes with the owner's store-release that published slots
    private int laTail() {
        return (int) TAIL.getAcquire(this);
    }

    // plain load: only the owner writes tail, so the owner reads its own last write
    private int lpTail() {
        return (int) TAIL.get(this);
    }

    // store-release: makes the slots written before it available for consumption
    private void srTail(int t) {
        TAIL.setRelease(this, t);
    }

    // cas-release (volatile CAS, which is at least release): commits a consume
    private boolean casHead(int expect, int update) {
        return HEAD.compareAndSet(this, expect, update);
    }

    // Slots are written plainly by the owner before srTail and read plainly by consumers after
    // laTail; a consumer that reads a slot the owner has since reused fails its casHead and
    // discards the value, exactly as in Go's runqget/runqgrab.
    private void spSlot(int i, Runnable r) {
        SLOT.set(ring, i & mask, r);
    }

    private Runnable lpSlot(int i) {
        return (Runnable) SLOT.get(ring, i & mask);
    }

    /** Outcome of {@link #put}: the overflow batch the caller must move to the global queue. */
    interface Overflow {
        /** Go's runqputslow: takes the batch (ring order, then the new task) as one unit. */
        void putBatch(Runnable[] batch, int n);
    }

    /**
     * Go's runqput. With {@code next}, {@code r} goes to runnext and the task it displaces goes
     * to the tail. If the ring is full, half of it plus the task go to {@code overflow}.
     * Owner only.
     *
     * @return true when the ring overflowed into the global queue
     */
    boolean put(Runnable r, boolean next, Overflow overflow, Runnable[] scratch) {
        if (next) {
            Runnable old;
            if (!stealable) {
                // One P, no thief: the owner alone reads and writes runnext. Release still
                // publishes the task to whoever takes this P over after a hand-off.
                old = runnext;
                RUNNEXT.setRelease(this, r);
            } else {
                // Only the owner stores a non-null runnext; thieves may CAS it to null
                // concurrently, so we retry the CAS against whatever is there now.
                do {
                    old = runnext;
                } while (!RUNNEXT.compareAndSet(this, old, r));
            }
            if (old == null) {
                return false;
            }
            r = old; // kick the old runnext to the regular queue
        }
        while (true) {
            int h = laHead();
            int t = lpTail();
            if (t - h < ring.length) {
                spSlot(t, r);
                srTail(t + 1);
                return false;
            }
            if (putSlow(r, h, t, overflow, scratch)) {
                return true;
            }
            // the queue is not full now (a thief took some); put should succeed
        }
    }

    /**
     * Go's runqputslow: moves half the ring plus {@code r} to the global queue as one batch.
     * Owner only. Returns false if a thief raced us and the ring is no longer full.
     */
    private boolean putSlow(Runnable r, int h, int t, Overflow overflow, Runnable[] scratch) {
        int n = (t - h) / 2;
        if (n != ring.length / 2) {
            throw new InternalError("runqputslow: queue is not full: head=" + h + " tail=" + t);
        }
        for (int i = 0; i < n; i++) {
            scratch[i] = lpSlot(h + i);
        }
        if (!casHead(h, h + n)) { // cas-release, commits consume
            return false;
        }
        clearTaken(h, n);
        scratch[n] = r;
        overflow.putBatch(scratch, n + 1);
        java.util.Arrays.fill(scratch, 0, n + 1, null);
        return true;
    }

    /**
     * Go's runqputbatch: puts {@code n} tasks at the tail; returns how many did not fit
     * (left at {@code batch[from..]} for the caller to send to the global queue). Owner only.
     */
    int putBatch(Runnable[] batch, int from, int n) {
        int h = laHead();
        int t = lpTail();
        int i = 0;
        while (i < n && t - h < ring.length) {
            spSlot(t, batch[from + i]);
            t++;
            i++;
        }
        srTail(t);
        return n - i;
    }

    /** Result holder for {@link #get}: whether the task came from runnext and inherits the slice. */
    static final class Got {
        Runnable task;
        boolean inheritTime;
    }

    /**
     * Go's runqget: runnext first (inheriting the time slice), then the head of the ring.
     * Owner only. Fills {@code out} and returns its task, or null when the queue is empty.
     *
     * @param takeRunnext false when the runnext chain is over its cap: the runnext task is then
     *                    moved to the tail so the ring gets a turn (Tokio's LIFO cap), or, if
     *                    the ring is empty, returned as a new time slice
     */
    Runnable get(Got out, boolean takeRunnext) {
        Runnable next = runnext;
        // If there is a runnext it is the next task to run. If the CAS fails, a thief took it;
        // only the owner sets runnext non-null, so there is no ABA and no need to retry. With
        // one P there is no thief: a plain clear does.
        if (next != null && (stealable ? RUNNEXT.compareAndSet(this, next, null) : clearRunnext())) {
            if (takeRunnext) {
                out.task = next;
                out.inheritTime = true;
                return next;
            }
            if (laHead() == lpTail()) {
                // Over the cap, but the ring is empty: nobody on this P waits behind it, so it
                // runs at once, as a new time slice (the caller counts a schedtick, which keeps
                // the global queue's turn every 61st tick). Requeueing it would only open a
                // window in which an idle P steals it and splits a ping-pong pair across Ps.
                out.task = next;
                out.inheritTime = false;
                return next;
            }
            requeueAtTail(next);
        }
        while (true) {
            int h = laHead(); // load-acquire, synchronize with other consumers
            int t = lpTail();
            if (t == h) {
                out.task = null;
                out.inheritTime = false;
                return null;
            }
            Runnable r = lpSlot(h);
            if (casHead(h, h + 1)) { // cas-release, commits consume
                clearTaken(h, 1);
                out.task = r;
                out.inheritTime = false;
                return r;
            }
        }
    }

    /**
     * Owner only, after its own casHead took {@code [h, h+n)}: clears those slots, so that the
     * ring does not keep a task (and the goroutine behind it) reachable after it ran. Go's ring
     * holds untraced pointers and need not; ours is traced. Safe: a thief that read these slots
     * before our CAS fails its own, and only this owner writes the slots again, later. Slots
     * taken by a thief stay as they are: clearing them would race the owner's refill.
     */
    private void clearTaken(int h, int n) {
        for (int i = 0; i < n; i++) {
            spSlot(h + i, null);
        }
    }

    // Owner only. The ring has room: we just emptied runnext, and if the ring is full we run its
    // head first and park the runnext task at the tail on the next call.
    private void requeueAtTail(Runnable r) {
        int h = laHead();
        int t = lpTail();
        if (t - h < ring.length) {
            spSlot(t, r);
            srTail(t + 1);
        } else {
            // Full ring: put it back; the owner will take it on a later call.
            RUNNEXT.setRelease(this, r);
        }
    }

    /**
     * Go's runqgrab: takes half of this queue into {@code dst} starting at {@code dstTail}
     * (mod {@code dst.length}). With {@code stealRunnext}, takes runnext when the ring is empty,
     * after a short back-off so that an owner about to run it gets the chance. Any thread.
     *
     * @return the number of tasks grabbed
     */
    int grab(Runnable[] dst, int dstTail, int dstMask, boolean stealRunnext, boolean ownerRunning) {
        while (true) {
            int h = laHead(); // load-acquire, synchronize with other consumers
            int t = laTail(); // load-acquire, synchronize with the producer
            int n = t - h;
            n = n - n / 2;
            if (n == 0) {
                if (stealRunnext) {
                    Runnable next = runnext;
                    if (next != null && ownerRunning) {
                        // Go sleeps 3us here: the owner is likely about to schedule runnext
                        // itself, and stealing it would only bounce it between Ps. Then, as
                        // Go, take whatever runnext holds now, even a task the owner has run
                        // and readied again meanwhile (a ping-pong pair cycles the same two
                        // tasks through it). Such a steal moves the pair to this P, which the
                        // next ready keeps together again; giving up instead sends this M
                        // through stopm, and the pair's next wakep wakes it again, an M
                        // wake-up per few hundred round trips instead of one per thousand
                        // (benchmarks/PERFORMANCE-LOG.md has the figures).
                        backOff();
                        next = runnext;
                    }
                    if (next != null) {
                        if (!RUNNEXT.compareAndSet(this, next, null)) {
                            continue;
                        }
                        dst[dstTail & dstMask] = next;
                        return 1;
                    }
                }
                return 0;
            }
            if (n > ring.length / 2) { // read inconsistent h and t
                continue;
            }
            for (int i = 0; i < n; i++) {
                dst[(dstTail + i) & dstMask] = lpSlot(h + i);
            }
            if (casHead(h, h + n)) { // cas-release, commits consume
                return n;
            }
        }
    }

    /**
     * Go's {@code usleep(3)} in runqgrab: the thief sleeps, it does not spin. A 3 us timed park
     * lasts tens of microseconds on Linux (timer slack), as Go's usleep does, and that length is
     * part of the design: the spinning M stays counted in nmspinning meanwhile, so the wakeps of
     * a ping-pong pair on the victim stay no-ops instead of waking an M per round trip, and the
     * core is free for the victim. (A busy 3 us spin here cost a second core per ping-pong.)
     */
    private static void backOff() {
        LockSupport.parkNanos(3_000);
    }

    /**
     * Go's runqsteal: steals half of {@code victim}'s tasks into this (the thief's, owned by the
     * caller) queue and returns one of them to run, or null. Owner of {@code this} only.
     */
    Runnable stealFrom(RunQueue victim, boolean stealRunnext, boolean victimRunning, int[] stolen) {
        int t = lpTail();
        int n = victim.grab(ring, t, mask, stealRunnext, victimRunning);
        stolen[0] = n;
        if (n == 0) {
            return null;
        }
        n--;
        Runnable r = lpSlot(t + n);
        spSlot(t + n, null);
        if (n == 0) {
            return r;
        }
        int h = laHead(); // load-acquire, synchronize with consumers
        if (t - h + n >= ring.length) {
            throw new InternalError("runqsteal: runq overflow");
        }
        srTail(t + n); // store-release, makes the item available for consumption
        return r;
    }

    /**
     * Go's runqempty. Observes head, tail and runnext as one consistent snapshot: it re-reads
     * tail so that a task moving from runnext into the ring between the reads is not missed.
     */
    boolean isEmpty() {
        while (true) {
            int h = laHead();
            int t = laTail();
            Runnable next = runnext;
            if (laTail() == t) {
                return h == t && next == null;
            }
        }
    }

    /** Approximate number of queued tasks including runnext, for stats. */
    int size() {
        int n = laTail() - laHead();
        if (n < 0) {
            n = 0;
        }
        return Math.min(n, ring.length) + (runnext != null ? 1 : 0);
    }

    /** Whether other Ps may steal from this queue (built for GOMAXPROCS > 1). */
    boolean stealable() {
        return stealable;
    }

    /**
     * A stealable queue of the same capacity holding this one's tasks, in order, runnext still
     * runnext; this one is left empty. For a P stopped by a stop-the-world (no owner, no thief).
     */
    RunQueue stealableCopy() {
        RunQueue q = new RunQueue(ring.length, true);
        Runnable[] buf = new Runnable[ring.length];
        Runnable next = null;
        int k = 0;
        Got g = new Got();
        while (get(g, true) != null) {
            // get hands out runnext first (inheritTime), then the ring from its head
            if (g.inheritTime && k == 0 && next == null) {
                next = g.task;
            } else {
                buf[k++] = g.task;
            }
        }
        q.putBatch(buf, 0, k);
        if (next != null) {
            RUNNEXT.setRelease(q, next);
        }
        return q;
    }

    /** Drains everything (runtime close / handoff of a dead P). Owner or stopped owner only. */
    int drainTo(java.util.function.Consumer<Runnable> sink) {
        int count = 0;
        Got g = new Got();
        while (get(g, true) != null) {
            sink.accept(g.task);
            count++;
        }
        return count;
    }
}
