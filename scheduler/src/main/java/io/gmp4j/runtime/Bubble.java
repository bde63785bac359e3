package io.gmp4j.runtime;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;

/**
 * A synctest bubble: Go's {@code synctestBubble} ({@code runtime/synctest.go}). Runtime SPI for
 * the gmp4j-test module ({@code io.gmp4j.test.SyncTest} is the user's face of it) and for the
 * channels module's clock seam ({@link io.gmp4j.runtime.spi.Clock}): not a user API, and it
 * changes with the runtime without notice.
 *
 * <p>A bubble is a set of goroutines: the one {@link #start} starts, and every goroutine started
 * by a member (or by one of the bubble's timers) joins it for life ({@code G.bubble}, set by
 * {@code Scheduler.go}). The bubble has its own clock and its own timers: a runtime timer created
 * by a member lives in the bubble's timer set, not in a P's heap, and its deadline is on the
 * bubble's clock ({@link #nanoTime}), which starts at {@link #EPOCH} and moves only in
 * {@link #awaitEnd}, straight to the next timer, when no member is running.
 *
 * <h2>Durably blocked</h2>
 * A member is durably blocked while parked in a wait that only another member can end: a wait
 * its parker marks durable ({@code G.park(reason, true)}). The channels module marks a send,
 * receive or select on channels made in the bubble, a sleep or timed wait (a bubble timer ends
 * it), a nil-channel wait and {@code select {}}, and {@code WaitGroup.await} on a group first
 * added to in the bubble. Not durable, as in Go: mutexes (a mutex is often global, held by code
 * outside the bubble), semaphores, {@code Once}, channels made outside the bubble, network and
 * syscalls, and every JDK wait (a goroutine in {@code Thread.sleep} or {@code Future.get} is
 * running, as far as the bubble knows).
 *
 * <h2>Accounting, and why it is exact</h2>
 * {@code running} counts the members that are not durably blocked. Every change of a member's
 * park state happens under this bubble's lock ({@link #parking}, {@link #readying}): a durable
 * park sets {@code G.durable} and decrements {@code running} in the same critical section as its
 * {@code RUNNING -> WAITING} CAS, and the ready that ends it clears the flag and increments in
 * the same critical section as its {@code -> READIED} CAS. So {@code running == 0} under the lock
 * means that, at that instant, every member is parked in a durable wait that nobody has readied.
 * A member readied by a timer callback is counted running again before the callback returns, so
 * the root, which fires the callbacks, sees the count it left behind.
 *
 * <p>The lock is a short spin lock, taken with {@code lockHolding} everywhere: a ready comes
 * from code that may hold another short lock (a timer channel's), and nothing here yields.
 */
public final class Bubble {
    /**
     * Go's synctest epoch, where a bubble's clock starts: the first instant of the year 2000, UTC
     * (946,684,800 s after the Unix epoch).
     */
    public static final Instant EPOCH = Instant.ofEpochSecond(946_684_800L);

    /** Open bubbles in the process: while 0, {@link #current} reads nothing else. */
    private static volatile int open;
    private static final ShortLock OPEN_LOCK = new ShortLock();
    /**
     * The bubble a thread that is not a member acts for: the root while it starts the first
     * member and while it runs the bubble's timer callbacks, so that what they create (a
     * goroutine of {@code afterFunc}, a ticker's next timer) belongs to the bubble.
     */
    private static final ThreadLocal<Bubble> ACTING = new ThreadLocal<>();

    final Scheduler sched;
    /** The bubble's System.nanoTime()-like value at {@link #EPOCH}. */
    private final long base;
    /** The bubble's nanoTime now; written under the lock, only while no member runs. */
    private volatile long now;
    private final ShortLock lock = new ShortLock();
    // Guarded by lock.
    private int live;
    private int running;
    private Waiter root;
    private Waiter waiter;
    private boolean ended;
    private Throwable panic;
    private long panicGoid;
    private long timerSeq;
    private final TreeSet<RuntimeTimer> timers = new TreeSet<>(
            Comparator.<RuntimeTimer>comparingLong(t -> t.when).thenComparingLong(t -> t.bubbleSeq));

    private Bubble(Scheduler sched) {
        this.sched = sched;
        // Any base works (deadlines are compared by difference); the real clock's now keeps the
        // deadlines that code outside the channels module computes from System.nanoTime() about
        // right: they fire when the bubble's clock has moved as far as they ask from its start.
        this.base = System.nanoTime();
        this.now = base;
    }

    /**
     * Go's synctest.Run, first half: a new bubble on {@code sched} whose first member runs
     * {@code body}. The caller is the bubble's root: it must call {@link #awaitEnd} next.
     *
     * @throws IllegalStateException when called from inside a bubble (Go: "synctest.Run called
     *     from within a synctest bubble")
     */
    public static Bubble start(Scheduler sched, Runnable body) {
        if (current() != null) {
            throw new IllegalStateException("synctest: bubble started from within a synctest bubble");
        }
        Bubble b = new Bubble(sched);
        OPEN_LOCK.lock();
        open++;
        OPEN_LOCK.unlock();
        ACTING.set(b);
        try {
            sched.go(body);
        } catch (RuntimeException e) {
            b.close();
            throw e;
        } finally {
            ACTING.remove();
        }
        return b;
    }

    private void close() {
        OPEN_LOCK.lock();
        open--;
        OPEN_LOCK.unlock();
    }

    /**
     * The bubble of the calling goroutine (or the bubble whose timers the calling thread runs),
     * or null.
     */
    public static Bubble current() {
        if (open == 0) {
            return null;
        }
        G g = G.current();
        if (g != null && g.bubble != null) {
            return g.bubble;
        }
        return ACTING.get();
    }

    /**
     * Throws unless the caller belongs to bubble {@code b}: Go's panic on a bubbled channel (or
     * timer) used from outside its bubble. {@code what} names the operation ("send on").
     */
    public static void checkMember(Bubble b, String what) {
        if (current() != b) {
            throw new IllegalStateException(what + (what.endsWith("timer") ? "" : " synctest channel")
                    + " from outside bubble");
        }
    }

    /** The bubble's clock, in System.nanoTime() terms. */
    public long nanoTime() {
        return now;
    }

    /** The bubble's clock as an instant: {@link #EPOCH} plus the time the bubble has advanced. */
    public Instant instant() {
        return EPOCH.plusNanos(now - base);
    }

    /** How far the bubble's clock has advanced since it started. */
    public Duration elapsed() {
        return Duration.ofNanos(now - base);
    }

    // =====================================================================================
    // Membership (Scheduler.go and goexit) and panics (G.uncaughtException)
    // =====================================================================================

    /** The bubble a goroutine started now joins: the caller's, else null. */
    static Bubble inherit() {
        return current();
    }

    /** {@code g} joins: it is live and runnable. Before its thread starts. */
    void started(G g) {
        lock.lockHolding();
        live++;
        running++;
        lock.unlock();
    }

    /** A member ended (it was running). */
    void exited(G g) {
        lock.lockHolding();
        live--;
        running--;
        Waiter w = takeWakeup();
        lock.unlock();
        if (w != null) {
            w.wake();
        }
    }

    /** A member ended with a panic: the first is what {@link #awaitEnd}'s caller gets. */
    void panicked(long goid, Throwable t) {
        lock.lockHolding();
        if (panic == null) {
            panic = t;
            panicGoid = goid;
        }
        lock.unlock();
    }

    // =====================================================================================
    // Durable-block accounting (G.park and G.ready of a member)
    // =====================================================================================

    /** {@code g} parks: its {@code RUNNING -> WAITING} CAS, counted if durable. Returns the witness. */
    int parking(G g, boolean durable) {
        lock.lockHolding();
        int s = g.casParkState(G.RUNNING, G.WAITING);
        Waiter w = null;
        if (s == G.RUNNING && durable) {
            g.durable = true;
            running--;
            w = takeWakeup();
        }
        lock.unlock();
        if (w != null) {
            w.wake(); // before the park: this M runs on until the member is off it
        }
        return s;
    }

    /** Readies {@code g}: true when it was parked (the caller unparks its thread). */
    boolean readying(G g) {
        lock.lockHolding();
        try {
            while (true) {
                int s = g.parkState();
                if (s == G.READIED) {
                    return false;
                }
                if (g.casParkState(s, G.READIED) == s) {
                    if (g.durable) {
                        g.durable = false;
                        running++;
                    }
                    return s == G.WAITING;
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * Under the lock: the waiter to wake now that {@code running} dropped, or null. The caller of
     * {@link #await} once it is the only member running; else the root once none is.
     */
    private Waiter takeWakeup() {
        Waiter w = null;
        if (waiter != null && running == 1) {
            w = waiter;
            waiter = null;
        } else if (running == 0 && root != null) {
            w = root;
            root = null;
        }
        return w;
    }

    /**
     * Go's synctest.Wait: returns when every other member of the caller's bubble is durably
     * blocked (or ended). Runnable members run first; the clock does not move meanwhile.
     *
     * @throws IllegalStateException when the caller is not a member ("synctest.Wait not called
     *     from within a synctest bubble"), or another member waits already
     */
    public static void await() {
        G g = G.current();
        Bubble b = g == null ? null : g.bubble;
        if (b == null) {
            throw new IllegalStateException("synctest.Wait not called from within a synctest bubble");
        }
        Waiter w = Waiter.current();
        b.lock.lockHolding();
        if (b.waiter != null) {
            b.lock.unlock();
            throw new IllegalStateException("synctest.Wait called from multiple goroutines simultaneously");
        }
        if (b.running == 1) {
            b.lock.unlock();
            return;
        }
        b.waiter = w;
        b.lock.unlock();
        w.park("synctest.Wait"); // not durable: the caller stays counted while it waits
    }

    // =====================================================================================
    // Timers (RuntimeTimer of a member)
    // =====================================================================================

    /** Arms {@code t} at {@code when} on the bubble's clock. */
    void addTimer(RuntimeTimer t, long when) {
        lock.lockHolding();
        t.when = when;
        t.bubbleSeq = timerSeq++; // equal deadlines fire in arming order: a replayable order
        t.inBubble = true;
        timers.add(t);
        lock.unlock();
    }

    /** Disarms {@code t}: true if it was pending. */
    boolean removeTimer(RuntimeTimer t) {
        lock.lockHolding();
        try {
            if (!t.inBubble) {
                return false;
            }
            t.inBubble = false;
            return timers.remove(t);
        } finally {
            lock.unlock();
        }
    }

    boolean isPending(RuntimeTimer t) {
        lock.lockHolding();
        try {
            return t.inBubble;
        } finally {
            lock.unlock();
        }
    }

    /** The number of pending bubble timers (for tests). */
    public int pendingTimers() {
        lock.lockHolding();
        try {
            return timers.size();
        } finally {
            lock.unlock();
        }
    }

    // =====================================================================================
    // The root: Go's synctest.Run loop
    // =====================================================================================

    /**
     * Run by the root (the thread that called {@link #start}): returns when every member has
     * ended. Meanwhile, each time no member runs, moves the clock to the next timer and runs the
     * timers due then (their callbacks on this thread). Returns null when all ended; the
     * members' dump when they are all durably blocked with no timer pending (a deadlock of the
     * bubble: they stay parked for good). A member's panic is {@link #panic()}.
     */
    public String awaitEnd() {
        Waiter w = null;
        try {
            while (true) {
                List<RuntimeTimer> due = null;
                lock.lockHolding();
                if (live == 0) {
                    ended = true;
                    lock.unlock();
                    return null;
                }
                if (running == 0) {
                    RuntimeTimer first = timers.isEmpty() ? null : timers.first();
                    if (first == null) {
                        lock.unlock();
                        return dump();
                    }
                    if (first.when - now > 0) {
                        now = first.when;
                    }
                    due = new ArrayList<>();
                    while (!timers.isEmpty() && timers.first().when - now <= 0) {
                        RuntimeTimer t = timers.pollFirst();
                        t.inBubble = false;
                        due.add(t);
                    }
                    lock.unlock();
                    fire(due);
                    continue;
                }
                if (w == null || !w.reusable()) {
                    w = Waiter.current();
                } else {
                    w.reset();
                }
                root = w;
                lock.unlock();
                w.park("synctest.Run");
            }
        } finally {
            close();
        }
    }

    private void fire(List<RuntimeTimer> due) {
        ACTING.set(this);
        try {
            for (RuntimeTimer t : due) {
                try {
                    t.callback.run();
                } catch (Throwable e) {
                    sched.reportTaskFailure("synctest bubble timer", e);
                }
            }
        } finally {
            ACTING.remove();
        }
    }

    /** The first panic of a member, or null. */
    public Throwable panic() {
        lock.lockHolding();
        try {
            return panic;
        } finally {
            lock.unlock();
        }
    }

    /** The id of the goroutine whose panic {@link #panic()} is. */
    public long panicGoroutine() {
        lock.lockHolding();
        try {
            return panicGoid;
        } finally {
            lock.unlock();
        }
    }

    /** True once {@link #awaitEnd} saw every member end. */
    public boolean ended() {
        lock.lockHolding();
        try {
            return ended;
        } finally {
            lock.unlock();
        }
    }

    /** Go-style dump of this bubble's live members, with the bubble's clock. */
    public String dump() {
        return "synctest bubble at " + instant() + " (" + elapsed() + " after its start):\n"
                + GoroutineDump.of(sched, g -> g.bubble == this);
    }

    @Override
    public String toString() {
        return "synctest bubble on " + sched + " at " + instant();
    }
}
