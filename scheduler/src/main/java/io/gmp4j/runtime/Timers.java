package io.gmp4j.runtime;

/**
 * One P's timer heap: Go's {@code p.timers}. A binary min-heap on the deadline under a lock of
 * its own, so any thread may add to or remove from it; due timers run on whichever M checks the
 * heap ({@code checkTimers}: the owner in {@code findRunnable}, a thief on its last steal pass).
 */
final class Timers {
    final P p;
    private final Scheduler sched;
    /** A spin lock: goroutines and Ms both take it (see SpinLock for why not ReentrantLock). */
    private final SpinLock lock = new SpinLock();
    private RuntimeTimer[] heap = new RuntimeTimer[16];
    private int size;
    /**
     * Deadline of the earliest timer, or 0 when the heap is empty: Go's {@code p.timer0When},
     * read without the lock by {@code findRunnable}, stealers and {@code checkdead}.
     */
    volatile long when0;
    /**
     * Set under {@link #lock} when this heap's P is removed by a GOMAXPROCS change and its
     * timers have moved to a live P ({@link #moveAllTo}); cleared, under the lock, if the P
     * comes back. An {@link #add} that finds it set adds nothing: its caller read a stale P.
     */
    private boolean dead;

    /** {@link #add}: added, not the earliest. */
    static final int ADDED = 0;
    /** {@link #add}: added and now the earliest. */
    static final int EARLIEST = 1;
    /** {@link #add}: not added, the P is gone ({@link #dead}); add to a live P. */
    static final int GONE = -1;

    Timers(P p, Scheduler sched) {
        this.p = p;
        this.sched = sched;
    }

    int size() {
        return size;
    }

    /**
     * Adds {@code t}, which must not be pending: {@link #EARLIEST} if it became the earliest,
     * {@link #ADDED} if not, {@link #GONE} (nothing added) if this heap's P was removed.
     */
    int add(RuntimeTimer t, long when) {
        lock.lock();
        try {
            if (t.heap != null) {
                throw new IllegalStateException("addTimer: timer already pending");
            }
            if (dead) {
                return GONE;
            }
            insert(t, when);
            sched.ntimers.incrementAndGet();
            when0 = heap[0].when;
            return heap[0] == t ? EARLIEST : ADDED;
        } finally {
            lock.unlock();
        }
    }

    private void insert(RuntimeTimer t, long when) {
        if (size == heap.length) {
            heap = java.util.Arrays.copyOf(heap, size * 2);
        }
        t.when = when;
        t.heap = this;
        t.index = size;
        heap[size++] = t;
        siftUp(t.index);
    }

    /**
     * Go's moveTimers from {@code (*p).destroy}: moves every timer of this heap into
     * {@code dst}, deadlines unchanged, and marks this heap dead. Both locks are held for the
     * whole move, so a concurrent {@link RuntimeTimer#stop} finds each timer in one heap or the
     * other (its racy read of {@code t.heap} is re-checked under the lock it then takes), never
     * in neither. Only the thread that stopped the world holds two heap locks, so no lock-order
     * cycle exists. Returns the number moved.
     */
    int moveAllTo(Timers dst) {
        lock.lock();
        try {
            dst.lock.lock();
            try {
                int n = size;
                for (int i = 0; i < n; i++) {
                    RuntimeTimer t = heap[i];
                    heap[i] = null;
                    t.heap = null;
                    dst.insert(t, t.when);
                }
                size = 0;
                dead = true;
                when0 = 0;
                dst.when0 = dst.size == 0 ? 0 : dst.heap[0].when;
                return n;
            } finally {
                dst.lock.unlock();
            }
        } finally {
            lock.unlock();
        }
    }

    /** Takes timers again: this heap's P is back in {@code allp}. */
    void revive() {
        lock.lock();
        try {
            dead = false;
        } finally {
            lock.unlock();
        }
    }

    /** Removes {@code t} if it is still in this heap. */
    boolean remove(RuntimeTimer t) {
        lock.lock();
        try {
            if (t.heap != this) {
                return false;
            }
            removeAt(t.index);
            return true;
        } finally {
            lock.unlock();
        }
    }

    private void removeAt(int i) {
        RuntimeTimer t = heap[i];
        int last = --size;
        if (i != last) {
            heap[i] = heap[last];
            heap[i].index = i;
            heap[last] = null;
            siftDown(i);
            siftUp(i);
        } else {
            heap[last] = null;
        }
        t.heap = null;
        t.index = -1;
        sched.ntimers.decrementAndGet();
        when0 = size == 0 ? 0 : heap[0].when;
    }

    /**
     * Go's checkTimers/runtimer: runs every timer due at {@code now}; callbacks run without the
     * lock held, in deadline order. Returns the number run.
     */
    int runDue(long now) {
        long w = when0;
        if (w == 0 || w - now > 0) {
            return 0;
        }
        int ran = 0;
        while (true) {
            RuntimeTimer t;
            lock.lock();
            try {
                if (size == 0 || heap[0].when - now > 0) {
                    return ran;
                }
                t = heap[0];
                removeAt(0);
            } finally {
                lock.unlock();
            }
            ran++;
            try {
                t.callback.run();
            } catch (Throwable e) {
                sched.reportTaskFailure("timer callback", e);
            }
        }
    }

    private void siftUp(int i) {
        RuntimeTimer t = heap[i];
        while (i > 0) {
            int parent = (i - 1) >>> 1;
            RuntimeTimer pt = heap[parent];
            if (t.when - pt.when >= 0) {
                break;
            }
            heap[i] = pt;
            pt.index = i;
            i = parent;
        }
        heap[i] = t;
        t.index = i;
    }

    private void siftDown(int i) {
        RuntimeTimer t = heap[i];
        while (true) {
            int c = 2 * i + 1;
            if (c >= size) {
                break;
            }
            if (c + 1 < size && heap[c + 1].when - heap[c].when < 0) {
                c++;
            }
            if (heap[c].when - t.when >= 0) {
                break;
            }
            heap[i] = heap[c];
            heap[i].index = i;
            i = c;
        }
        heap[i] = t;
        t.index = i;
    }
}
