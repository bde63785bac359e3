package io.gmp4j.runtime;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.concurrent.locks.LockSupport;

/**
 * A goroutine: Go's {@code g}, here the record that goes with one virtual thread.
 *
 * <p>The virtual thread carries the stack and the continuation; the G carries what the
 * scheduler and the goroutine dump need: the goroutine id and, while it is
 * parked in a gmp4j wait ({@link #park}), the wait reason and since when. {@link #park} and
 * {@link #ready} are Go's {@code gopark}/{@code goready}: the primitive that channels, timers
 * and sync build on, and the only waits that {@code checkdead} counts as "asleep".
 */
public final class G implements Thread.UncaughtExceptionHandler {
    private static final VarHandle PARK_STATE;

    static {
        try {
            PARK_STATE = MethodHandles.lookup().findVarHandle(G.class, "parkState", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    // parkState transitions: RUNNING -> WAITING (park) -> READIED (ready) -> RUNNING (park returns);
    // RUNNING -> READIED (ready before park: a permit) -> RUNNING (the next park returns at once).
    static final int RUNNING = 0;
    static final int READIED = 1;
    static final int WAITING = 2;

    final long goid;
    final Scheduler sched;
    Thread thread;
    private volatile int parkState;
    /** Go's waitreason; non-null while parked in {@link #park}. */
    String waitReason;
    /** System.nanoTime() when the current wait began. */
    long waitSince;
    /** True while inside a syscall ({@code Syscall.blocking}, a poll goroutine's blocking turn). Written by the goroutine itself. */
    volatile boolean inSyscall;
    /**
     * Set when the goroutine ends; the registry drops dead entries lazily. Plain: a reader that
     * sees it late only keeps a dead entry one sweep longer.
     */
    boolean dead;
    /**
     * A record the channels package reuses for this goroutine's blocking channel operations
     * (Go's per-P sudog cache): a goroutine waits in at most one plain send or receive at a
     * time. Only this goroutine reads or writes it.
     */
    private Object chanCache;
    /**
     * A poll goroutine's batch during a poll turn ({@code NetpollHost.beginTurn} to
     * {@code endTurn}): the goroutines it readies go here. Only this goroutine reads or writes
     * it, so it follows the goroutine from M to M with no race.
     */
    io.gmp4j.runtime.spi.TaskBatch turnBatch;
    /** The goroutine's function, from go() until it starts running; then null (see Scheduler.goexit). */
    Runnable fn;
    /** {@link SchedLatency}'s sample: Go's trackingSeq and tracking (this goroutine writes them), and the stamp. */
    int trackingSeq;
    boolean tracking;
    long runnableSince;
    /** The registry's weak entry for this goroutine in leak-profile mode ({@link LeakProfile}), else null. */
    LeakProfile.Ref leakRef;
    /** The synctest bubble this goroutine belongs to, or null: set by go() before it starts, never changed. */
    Bubble bubble;
    /** A member parked in a durable wait, not yet readied: guarded by its bubble's lock (see Bubble). */
    boolean durable;

    G(long goid, Scheduler sched) {
        this.goid = goid;
        this.sched = sched;
    }

    /** Goroutine id, unique per runtime, starting at 1 as in Go. */
    public long id() {
        return goid;
    }

    /** The virtual thread that runs this goroutine. */
    public Thread thread() {
        return thread;
    }

    /**
     * Returns the goroutine running the calling code, or null when called from a platform
     * thread or a virtual thread that no gmp4j runtime started.
     */
    public static G current() {
        // The goroutine's thread carries its G as its uncaught-exception handler (set by
        // Scheduler.go): one field read, no map lookup, on every park path that needs it.
        return Carrier.gOf(Thread.currentThread());
    }

    /**
     * A goroutine that ends with an exception: Go's unrecovered panic. Where it goes is its
     * runtime's choice ({@link Scheduler#setPanicHandler}); by default it is printed as Go
     * prints a panic (the exception, then the goroutine's id and stack) and the program goes on.
     */
    @Override
    public void uncaughtException(Thread t, Throwable e) {
        sched.taskFailures.increment();
        sched.panic(goid, e);
    }

    /**
     * Go's gopark: parks the calling goroutine until {@link #ready} is called for it (or returns
     * at once if {@code ready} already came). {@code reason} shows in the goroutine dump
     * ("chan receive", "select", "sleep", ...). Must be called by the goroutine itself.
     * Spurious wake-ups of the underlying virtual thread are absorbed here. Not interruptible,
     * as in Go: an interrupt is re-asserted when the wait ends.
     */
    public void park(String reason) {
        park(reason, false);
    }

    /**
     * {@link #park}, saying whether the wait is durable: one that only another goroutine of this
     * goroutine's synctest bubble can end (a channel made in the bubble, a bubble timer); see
     * {@link Bubble}. Ignored for a goroutine outside any bubble.
     */
    public void park(String reason, boolean durable) {
        if (Thread.currentThread() != thread) {
            throw new IllegalStateException("G.park: goroutine " + goid + " can only park itself");
        }
        // Plain stores: only the dump reads these, racily. A coarse clock (sysmon's tick) is
        // enough for "[chan receive, 2 minutes]" and spares a nanoTime call per park.
        waitReason = reason;
        waitSince = sched.coarseNanos;
        ParkHooks.parking(this, reason);
        io.gmp4j.runtime.events.GoroutineParkEvent parkEvent = SchedTrace.parkBegin(this);
        // The one atomic step of a park: publish WAITING, or find the permit ready() left.
        Bubble b = bubble;
        int s = b == null ? (int) PARK_STATE.compareAndExchange(this, RUNNING, WAITING) : b.parking(this, durable);
        if (s == RUNNING) {
            boolean interrupted = false;
            while (parkState == WAITING) {
                LockSupport.park(this);
                // An interrupt ends LockSupport.park at once, every time: remember it and clear
                // it so that the wait does not spin, and re-assert it when the wait is over.
                if (Thread.interrupted()) {
                    interrupted = true;
                }
            }
            if (interrupted) {
                thread.interrupt();
            }
        }
        ParkHooks.resumed(this);
        SchedTrace.parkEnd(parkEvent);
        // Consume the readiness. A release store suffices: ready() is idempotent while READIED,
        // and the next ready() meant for the next park is ordered after this store by whatever
        // lock published this goroutine as a waiter again.
        waitReason = null;
        PARK_STATE.setRelease(this, RUNNING);
    }

    /** The park state's CAS for {@link Bubble}, which makes it under its lock: the witness. */
    int casParkState(int expect, int to) {
        return (int) PARK_STATE.compareAndExchange(this, expect, to);
    }

    int parkState() {
        return parkState;
    }

    /** True while parked in {@link #park} and not yet readied (checkdead's "asleep"). */
    boolean isWaiting() {
        return parkState == WAITING;
    }

    /**
     * Go's goready: makes a goroutine parked in {@link #park} runnable. Called from a goroutine,
     * the woken goroutine goes to the caller's runnext slot; from any other thread, to the
     * global run queue. Idempotent until the next park.
     */
    public void ready() {
        if (parkState != READIED && Thread.currentThread().isVirtual() && Carrier.notYetParked(thread)) {
            awaitParked();
        }
        Bubble b = bubble;
        if (b != null) {
            if (b.readying(this)) { // the CAS and the durable count in one step: see Bubble
                LockSupport.unpark(thread);
            }
            return;
        }
        while (true) {
            int s = parkState;
            if (s == READIED) {
                return;
            }
            if (s == WAITING) {
                ParkHooks.readying(this);
            }
            if (PARK_STATE.compareAndSet(this, s, READIED)) {
                if (s == WAITING) {
                    LockSupport.unpark(thread);
                }
                return;
            }
        }
    }

    /** Takes the record cached by {@link #cacheForChan}, leaving the slot empty; or null. */
    public Object takeChanCache() {
        Object c = chanCache;
        chanCache = null;
        return c;
    }

    /** Caches a record for this goroutine's next blocking channel operation. Caller: this goroutine. */
    public void cacheForChan(Object record) {
        chanCache = record;
    }

    /**
     * Spins briefly (about a microsecond) until this goroutine's virtual thread has finished
     * parking. Called by a goroutine that readies a goroutine still on its way to park, which
     * can only be running on another P. Go never sees this state: gopark releases the channel
     * lock only after the goroutine is off its M, so a waker always finds it parked and moves it
     * to its own runnext. Here the lock is released before the park, and a wake-up in that
     * window would leave a permit: the goroutine would resume on its own P, and a ping-pong pair
     * once split across Ps would stay split, paying a cross-core hand-off per message. Waiting
     * out the park lets the wake-up move it to the waker's P, so the pair comes back together.
     */
    private void awaitParked() {
        for (int i = 0; i < AWAIT_PARKED_SPINS && Carrier.notYetParked(thread); i++) {
            Thread.onSpinWait();
        }
    }

    /** Bound of {@link #awaitParked}: a park takes a few hundred nanoseconds. */
    private static final int AWAIT_PARKED_SPINS = 100;

    @Override
    public String toString() {
        return "goroutine " + goid;
    }
}
