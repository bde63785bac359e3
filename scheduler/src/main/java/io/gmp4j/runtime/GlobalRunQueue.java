package io.gmp4j.runtime;

/**
 * Go's {@code sched.runq}: the global run queue, a FIFO under one lock.
 *
 * <p>Tasks arrive here from threads that are not our Ms (timer threads, the JDK's unparker,
 * Netty, plain platform threads), from {@code runqputslow} overflow as one batch, from
 * {@code Go.gosched()}, and from goroutines whose M lost its P. {@link #size} is readable
 * without the lock so that {@code findRunnable} can skip the lock when the queue is empty
 * (Go's {@code sched.runqsize} check).
 *
 * <p>Storage is a growable ring of tasks; a batch is appended under one lock acquisition.
 */
final class GlobalRunQueue {
    /** Go's sched.lock: guards this queue and the scheduler's idle lists. */
    final SpinLock lock = new SpinLock();
    private Runnable[] items = new Runnable[1024];
    private int head; // index of the oldest task
    // Written under the lock, read without it as a hint (Go reads sched.runqsize racily too).
    private volatile int size;

    /** Lock-free hint: the number of queued tasks. */
    int size() {
        return size;
    }

    /** Go's globrunqput. Caller holds {@link #lock}. */
    void put(Runnable r) {
        ensureRoom(1);
        items[(head + size) & (items.length - 1)] = r;
        size = size + 1;
    }

    /** Go's globrunqputhead (used by gosched-like requeues that must run soon). Caller holds the lock. */
    void putHead(Runnable r) {
        ensureRoom(1);
        head = (head - 1) & (items.length - 1);
        items[head] = r;
        size = size + 1;
    }

    /** Go's globrunqputbatch: appends {@code batch[0..n)} in order. Caller holds the lock. */
    void putBatch(Runnable[] batch, int from, int n) {
        ensureRoom(n);
        int m = items.length - 1;
        int s = size;
        for (int i = 0; i < n; i++) {
            items[(head + s + i) & m] = batch[from + i];
        }
        size = s + n;
    }

    /** The oldest task, left in place, or null. Caller holds the lock. */
    Runnable peek() {
        return size == 0 ? null : items[head];
    }

    /** Removes and returns the oldest task, or null. Caller holds the lock. */
    Runnable poll() {
        int s = size;
        if (s == 0) {
            return null;
        }
        Runnable r = items[head];
        items[head] = null;
        head = (head + 1) & (items.length - 1);
        size = s - 1;
        return r;
    }

    /**
     * Removes up to {@code n} of the oldest tasks into {@code dst[0..)}, in order; returns how
     * many. Caller holds the lock. One store of {@link #size} for the whole batch: a volatile
     * store is a full fence on x86, and {@code globrunqget} takes up to 128 tasks at a time.
     */
    int pollBatch(Runnable[] dst, int n) {
        int s = size;
        if (n > s) {
            n = s;
        }
        int m = items.length - 1;
        int h = head;
        for (int i = 0; i < n; i++) {
            dst[i] = items[h];
            items[h] = null;
            h = (h + 1) & m;
        }
        head = h;
        size = s - n;
        return n;
    }

    /** Puts {@code batch[from..from+n)} back at the head, in order (the oldest stays first). Caller holds the lock. */
    void putHeadBatch(Runnable[] batch, int from, int n) {
        ensureRoom(n);
        int m = items.length - 1;
        int h = head;
        for (int i = n - 1; i >= 0; i--) {
            h = (h - 1) & m;
            items[h] = batch[from + i];
        }
        head = h;
        size = size + n;
    }

    private void ensureRoom(int n) {
        int s = size;
        if (s + n <= items.length) {
            return;
        }
        int cap = items.length;
        while (cap < s + n) {
            cap <<= 1;
        }
        Runnable[] bigger = new Runnable[cap];
        int m = items.length - 1;
        for (int i = 0; i < s; i++) {
            bigger[i] = items[(head + i) & m];
        }
        items = bigger;
        head = 0;
    }
}
