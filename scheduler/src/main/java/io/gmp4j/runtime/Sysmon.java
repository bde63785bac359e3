package io.gmp4j.runtime;

import io.gmp4j.runtime.spi.Netpoll;

import java.util.concurrent.locks.LockSupport;

/**
 * Go's sysmon: a platform daemon thread without a P that watches the Ps.
 *
 * <p>It sleeps 20 µs, doubling the sleep after 1 ms without anything to do, up to 10 ms. Each
 * round it {@linkplain #retake retakes} Ps: it sets the preempt flag of a P that has run one
 * goroutine for 10 ms, hands off a P stuck 10 ms after that request (a pinned or CPU-bound
 * goroutine: the JDK cannot preempt it), and hands off a P whose goroutine sits in a syscall by
 * Go's rule. It also polls the network if nobody has for 10 ms, makes sure overdue timers find
 * an M, and prints the schedtrace line every {@code -Dgmp4j.schedtrace} milliseconds (with the counters
 * too under {@code -Dgmp4j.scheddetail=true}, Go's {@code scheddetail}).
 */
final class Sysmon extends Thread {
    static final long MIN_SLEEP_NANOS = 20_000;
    static final long MAX_SLEEP_NANOS = 10_000_000;
    /** Go's forcePreemptNS: how long one goroutine may hold a P before a preempt request. */
    static final long FORCE_PREEMPT_NANOS = 10_000_000;
    /** How long a P may ignore its preempt request before it is handed off. */
    static final long HANDOFF_AFTER_PREEMPT_NANOS = 10_000_000;
    /** Rounds without work before the sleep starts doubling (1 ms at 20 µs). */
    static final int IDLE_ROUNDS_BEFORE_BACKOFF = 50;

    private final Scheduler sched;
    private final long schedtraceNanos;
    /** Go's scheddetail: the schedtrace line also carries the scheduler's counters. */
    private final boolean scheddetail = io.gmp4j.Tunable.SCHEDDETAIL.onIfTrue();
    /**
     * sysmon's private view of each P (Go's {@code sysmontick}). Kept here, not in P, so that
     * sysmon's writes every tick never touch the cache lines the P's owner writes per task.
     */
    private Tick[] ticks;

    private static final class Tick {
        int schedtick;
        long schedwhen;
        int syscalltick;
        long syscallwhen;
        long preemptAt;
    }
    private volatile boolean stop;
    /** {@code -Dgmp4j.preempthandoff=false}: never hand off a P whose goroutine ignores its preempt request. */
    private final boolean preemptHandoff = io.gmp4j.Tunable.PREEMPTHANDOFF.onUnlessFalse();

    Sysmon(Scheduler sched, long schedtraceMillis) {
        super(null, null, sched.name + "-sysmon", 0, false);
        this.sched = sched;
        this.schedtraceNanos = schedtraceMillis * 1_000_000;
        this.ticks = new Tick[sched.allp.length];
        for (int i = 0; i < ticks.length; i++) {
            ticks[i] = new Tick();
        }
        setDaemon(true);
    }

    void shutdown() {
        stop = true;
        LockSupport.unpark(this);
    }

    @Override
    public void run() {
        sched.unpinCurrentThread(); // started by whoever built the runtime, maybe a pinned M
        long delay = MIN_SLEEP_NANOS;
        int idle = 0;
        long lastTrace = System.nanoTime();
        while (!stop && !sched.closed()) {
            if (idle == 0) {
                delay = MIN_SLEEP_NANOS;
            } else if (idle > IDLE_ROUNDS_BEFORE_BACKOFF) {
                delay = Math.min(delay * 2, LoopPreempt.maxSleep(MAX_SLEEP_NANOS));
            }
            // With every P idle there is nothing to retake: sleep the longest.
            if (sched.npidle() == sched.gomaxprocs && sched.nsyscall.get() == 0) {
                delay = MAX_SLEEP_NANOS;
            }
            LockSupport.parkNanos(this, delay);
            if (stop) {
                break;
            }
            long now = System.nanoTime();
            sched.coarseNanos = now;
            // Go's sysmon leaves the Ps alone while the world stops (the stopper preempts them).
            boolean worked = !sched.gcwaiting && retake(now) > 0;
            worked |= pollIfStale(now);
            kickOverdueTimers(now);
            // A request posted or met: the next round comes soon (20 us), so that the pending
            // word drops soon after an instrumented loop meets the request.
            worked |= LoopPreempt.publish(sched);
            if (worked) {
                idle = 0;
            } else {
                idle++;
            }
            if (schedtraceNanos > 0 && now - lastTrace >= schedtraceNanos) {
                lastTrace = now;
                System.err.println(scheddetail ? sched.stats().toString() : sched.schedtrace());
            }
        }
        LoopPreempt.retire(sched);
    }

    /** Go's retake. Returns the number of Ps retaken. */
    int retake(long now) {
        int n = 0;
        for (P p : sched.allp) {
            if (p.id >= ticks.length) {
                growTicks(p.id + 1); // GOMAXPROCS grew
            }
            Tick pd = ticks[p.id];
            long s = p.status();
            int st = P.state(s);
            if (st != P.USER && st != P.SYSCALL) {
                pd.preemptAt = 0;
                continue;
            }
            // Preempt or hand off a P that has been running the same goroutine too long.
            int t = p.schedtick();
            if (pd.schedtick != t) {
                pd.schedtick = t;
                pd.schedwhen = now;
                pd.preemptAt = 0;
            } else if (st == P.USER && !sched.replayable() && now - pd.schedwhen >= FORCE_PREEMPT_NANOS) {
                if (pd.preemptAt == 0) {
                    p.preempt = true;
                    SchedTrace.preempt(sched, p, now - pd.schedwhen);
                    pd.preemptAt = now;
                    sched.preemptRequests.increment();
                } else if (!p.preempt) {
                    // Go's retake asks again every round while the slice is over. The request
                    // is cleared when the P runs its next task (SchedLoop.run), also one that
                    // inherits the slice from runnext without a new schedtick: the goroutine
                    // asked may have parked and left the rest of its slice to one that never
                    // was, and that one must be asked too. The handoff still counts from the
                    // first request.
                    p.preempt = true;
                } else if (preemptHandoff && now - pd.preemptAt >= HANDOFF_AFTER_PREEMPT_NANOS
                        && workWaiting(p, now)) {
                    // The goroutine ignored the request: it is pinned (native frame, file I/O)
                    // or CPU-bound. Its M keeps running it without the P; the P moves on.
                    if (p.casStatus(s, P.pack(P.epoch(s), P.IDLE))) {
                        p.m = null;
                        pd.preemptAt = 0;
                        pd.schedwhen = now;
                        SchedTrace.handoff(sched, p, io.gmp4j.runtime.events.HandoffEvent.STUCK);
                        sched.handoffp(p);
                        n++;
                    }
                }
            }
            if (st == P.SYSCALL) {
                // Retake P from syscall if it's there for more than 1 sysmon tick (at least 20us).
                int sc = p.syscalltick();
                if (pd.syscalltick != sc) {
                    pd.syscalltick = sc;
                    pd.syscallwhen = now;
                    continue;
                }
                // On the one hand we don't want to retake Ps if there is no other work to do,
                // but on the other hand we want to retake them eventually because they can
                // prevent the sysmon thread from deep sleep.
                if (p.runq.isEmpty() && sched.nmspinning.get() + sched.npidle() > 0
                        && now - pd.syscallwhen < FORCE_PREEMPT_NANOS) {
                    continue;
                }
                if (p.casStatus(s, P.pack(P.epoch(s), P.IDLE))) {
                    p.m = null;
                    SchedTrace.handoff(sched, p, io.gmp4j.runtime.events.HandoffEvent.SYSCALL);
                    sched.handoffp(p);
                    n++;
                }
            }
        }
        return n;
    }

    private void growTicks(int n) {
        Tick[] t = java.util.Arrays.copyOf(ticks, n);
        for (int i = ticks.length; i < n; i++) {
            t[i] = new Tick();
        }
        ticks = t;
    }

    /** Something else could run if the P were free: local or global work, or a due timer. */
    private boolean workWaiting(P p, long now) {
        long w = p.timers.when0;
        return !p.runq.isEmpty() || sched.runq.size() > 0 || (w != 0 && w - now <= 0);
    }

    /** Go: poll the network if it was not polled for more than 10 ms. */
    private boolean pollIfStale(long now) {
        Netpoll np = sched.netpoll;
        return np != null && np.sysmonPoll(now - 10_000_000);
    }

    /** Go's sysmon timer check: an overdue timer and an idle P mean no M is on it; start one. */
    private void kickOverdueTimers(long now) {
        long next = sched.earliestTimerWhen();
        if (next != 0 && now - next > MIN_SLEEP_NANOS * 50 && sched.npidle() > 0) {
            sched.wakep();
        }
    }
}
