package io.gmp4j.runtime;

import io.gmp4j.runtime.spi.Netpoll;
import io.gmp4j.runtime.spi.TaskBatch;

import java.util.concurrent.RejectedExecutionException;

/**
 * The scheduler loop an M runs (proc.go's schedule, findRunnable, stealWork): the local and
 * global queues with Go's fairness tick, timers, netpoll, stealing from other Ps, spinning and
 * going idle; and the run of one task with its time slice.
 */
abstract sealed class SchedLoop extends Placement permits Scheduler {
    SchedLoop(Scheduler.Config c) {
        super(c);
    }

    // =====================================================================================
    // The scheduler loop
    // =====================================================================================

    /** Go's schedule: find a runnable task and run it, forever. */
    void schedule(M m) {
        while (!life.closed) {
            Runnable r = findRunnable(m);
            if (r == null) {
                return; // closed
            }
            if (m.spinning) {
                resetspinning(m);
            }
            run(m, r);
            if (m.p == null && !reacquireAfterLoss(m)) {
                return;
            }
        }
    }

    /** Go's execute: runs one task on the M's P. */
    private void run(M m, Runnable r) {
        P p = m.p;
        if (!m.inheritTime) {
            p.incSchedtick();
        }
        if (p.preempt) {
            p.preempt = false; // a new task starts a new time slice
        }
        p.tasksRun++;
        m.curTask = r;
        p.srStatus(P.pack(m.epoch, P.USER));
        io.gmp4j.runtime.events.GoroutineRunEvent runEvent = SchedTrace.runBegin(this, m, p, r);
        try {
            r.run();
        } catch (Throwable t) {
            reportTaskFailure("task " + r, t);
        } finally {
            SchedTrace.runEnd(runEvent);
            m.curTask = null;
            m.goschedGlobal = false;
        }
        // Take the P back from "user" state. Re-read m.p: the task may have lost its P, or
        // swapped it for another in exitsyscall's slow path (and a stale P's epoch could
        // collide with ours). Failure means sysmon handed it off, or the task parked inside
        // Syscall.blocking and left it in SYSCALL under our epoch.
        P cur = m.p;
        if (cur == null) {
            return;
        }
        if (!cur.casStatus(P.pack(m.epoch, P.USER), P.pack(m.epoch, P.RUNNING))) {
            long s = cur.status();
            if (!(P.epoch(s) == m.epoch && P.state(s) == P.SYSCALL
                    && cur.casStatus(s, P.pack(m.epoch, P.RUNNING)))) {
                m.p = null;
            }
        }
    }

    /** After losing its P: take an idle one, or sleep until startm hands us one. */
    private boolean reacquireAfterLoss(M m) {
        P pp = pidlegetLocked();
        if (pp != null) {
            acquirep(m, pp);
            return true;
        }
        return stopm(m);
    }

    private void becomeSpinning(M m) {
        m.spinning = true;
        nmspinning.incrementAndGet();
        needspinning = false; // a spinning M now exists to find the work (Go's becomeSpinning)
    }

    /** Go's resetspinning: an M that found work stops spinning and may wake another. */
    private void resetspinning(M m) {
        m.spinning = false;
        if (nmspinning.decrementAndGet() < 0) {
            throw new InternalError("resetspinning: negative nmspinning");
        }
        // M wakeup policy is deliberately conservative, so check if we need another one now.
        wakep();
    }

    /**
     * Go's findRunnable: finds a task to run, in Go's order. Tries the global queue first every
     * 61st tick, then runnext and the local queue, the global queue, a non-blocking netpoll, and
     * stealing (only while {@code 2*nmspinning < gomaxprocs - npidle}); otherwise releases the P
     * and sleeps. Returns with {@code m.p} set, or null when the runtime closes.
     */
    private Runnable findRunnable(M m) {
        top:
        while (true) {
            if (life.closed) {
                return null;
            }
            if (gcwaiting) {
                // Go's gcstopm: a stop-the-world waits for this P.
                if (!gcstopm(m)) {
                    return null;
                }
                continue;
            }
            P p = m.p;
            long now = 0;
            if (p.timers.when0 != 0) {
                now = System.nanoTime();
                p.timers.runDue(now); // Go's checkTimers
            }

            // Check the global runnable queue once in a while to ensure fairness. Otherwise
            // two goroutines can completely occupy the local runqueue by constantly respawning
            // each other. One refinement of Go's check: it does not hand the P straight back to
            // the goroutine that this M's last run put at the global head by yielding (a
            // preempted hog, a gosched): the work that waited through its slice runs first, and
            // the pick is owed to the next schedule, so the global queue still waits at most
            // one run more than Go's would. (With Go's rule the hog wins that pick once in 61
            // slices, and a goroutine its slice delayed waits a second slice.)
            Runnable yielded = m.yieldedGlobal;
            if (yielded != null) {
                m.yieldedGlobal = null;
            }
            if ((p.fairnessOwed || p.schedtick() % GLOBAL_QUEUE_INTERVAL == 0) && runq.size() > 0) {
                Runnable r = null;
                lock.lock();
                try {
                    if (!p.fairnessOwed && yielded != null && runq.peek() == yielded) {
                        p.fairnessOwed = true;
                    } else {
                        p.fairnessOwed = false;
                        r = globrunqget(p, 1);
                    }
                } finally {
                    lock.unlock();
                }
                if (r != null) {
                    p.fairnessPicks++;
                    return notInherited(m, p, r);
                }
            }

            // local runq
            boolean mayInherit = p.runnextChain < MAX_RUNNEXT_INHERITS;
            Runnable r = p.runq.get(p.got, mayInherit);
            if (r != null) {
                if (p.got.inheritTime) {
                    p.runnextChain++;
                    p.runnextHits++;
                    m.inheritTime = true;
                    return r;
                }
                if (!mayInherit) {
                    p.runnextCapped++;
                }
                return notInherited(m, p, r);
            }

            // global runq
            if (runq.size() != 0) {
                lock.lock();
                try {
                    r = globrunqget(p, 0);
                } finally {
                    lock.unlock();
                }
                if (r != null) {
                    return notInherited(m, p, r);
                }
            }

            // Poll network: Go's non-blocking netpoll(0) before stealing. Once per run of other
            // work: tasksRun moves whenever anything ran on this P since the poll.
            Netpoll np = netpoll;
            if (np != null && p.tasksRun != p.netpollRan && netpollHere(np, m, p, 0)) {
                continue top;
            }

            // Spinning Ms: steal work from other Ps. Limit the number of spinning Ms to half
            // the number of busy Ps, to avoid excessive CPU use when GOMAXPROCS>1 but the
            // program parallelism is low.
            if (m.spinning || 2 * nmspinning.get() < gomaxprocs - npidle) {
                if (!m.spinning) {
                    becomeSpinning(m);
                }
                r = stealWork(m, p, now != 0 ? now : System.nanoTime());
                if (r != null) {
                    return notInherited(m, p, r);
                }
            }

            // Nothing anywhere: Go's last idle M blocks in netpoll(delay) after releasing its P.
            // A poller whose waiting needs a P (a poll goroutine that blocks in its loop inside a
            // syscall, which gives the P back) is asked here, while this M still holds one.
            if (np != null) {
                long next = earliestTimer();
                long delay = next == 0 ? -1 : Math.max(0, next - System.nanoTime());
                if (netpollHere(np, m, p, delay)) {
                    continue top;
                }
            }

            // We have nothing to do. Release the P, re-checking the global queue under the lock.
            lock.lock();
            try {
                if (life.closed) {
                    return null;
                }
                // Under the lock gcwaiting is exact: while it is set the P stops (pidleput).
                if (runq.size() != 0 && !gcwaiting) {
                    r = globrunqget(p, 0);
                    return notInherited(m, p, r);
                }
                if (!m.spinning && needspinning && !gcwaiting) {
                    // A wakep found work but no idle P (see wakep): spin instead of sleeping,
                    // so that this M's re-checks below find that work.
                    becomeSpinning(m);
                    continue top;
                }
                releasep(m);
                pidleput(p);
            } finally {
                lock.unlock();
            }

            // Delicate dance: thread transitions from spinning to non-spinning state,
            // potentially concurrently with submission of new work. We must drop nmspinning
            // first and then check all sources again (with a StoreLoad barrier in between).
            // If we did it the other way around, another thread could submit work after we've
            // checked all sources but before we drop nmspinning; as a result nobody would
            // unpark a thread to run the work.
            boolean wasSpinning = m.spinning;
            if (m.spinning) {
                m.spinning = false;
                // the atomic decrement is the StoreLoad barrier of the dance
                if (nmspinning.decrementAndGet() < 0) {
                    throw new InternalError("findRunnable: negative nmspinning");
                }
                // Check the global queue again: a submitter that saw us spinning did not wake
                // anyone (Go issue 43997 explains why every spinning M re-checks).
                if (runq.size() != 0) {
                    lock.lock();
                    try {
                        // re-check under the lock: another M may have emptied it meanwhile
                        P pp = runq.size() != 0 ? pidleget() : null;
                        if (pp != null) {
                            acquirep(m, pp);
                            becomeSpinning(m);
                            r = globrunqget(pp, 0);
                            if (r == null) {
                                throw new InternalError("findRunnable: global runq empty with non-zero size");
                            }
                            return notInherited(m, pp, r);
                        }
                    } finally {
                        lock.unlock();
                    }
                }
                P pp = checkRunqsNoP();
                if (pp != null) {
                    acquirep(m, pp);
                    becomeSpinning(m);
                    continue top;
                }
            }

            // Timers: the earliest deadline over all Ps decides how long an idle M may sleep.
            long pollUntilNow = earliestTimer();
            if (pollUntilNow != 0 && lastpoll.getAndSet(0) != 0) {
                // We hold the poll token: sleep until the next timer or a wakeup (Go's
                // netpoll(delay) by the last M going idle, on a platform without a poller).
                long delay = Math.max(0, pollUntilNow - System.nanoTime());
                pollUntil = pollUntilNow;
                if (life.closed) {
                    lastpoll.set(System.nanoTime());
                    return null;
                }
                timerSleep.sleep(delay);
                pollUntil = 0;
                lastpoll.set(System.nanoTime());
                P pp = pidlegetLocked();
                if (pp != null) {
                    acquirep(m, pp);
                    if (wasSpinning) {
                        becomeSpinning(m);
                    }
                    continue top;
                }
            } else if (pollUntilNow != 0) {
                long pu = pollUntil;
                if (pu == 0 || pu - pollUntilNow > 0) {
                    timerSleep.wakeup(); // the sleeper sleeps past our timer: make it re-plan
                }
            }
            if (!stopm(m)) {
                return null;
            }
        }
    }

    /**
     * {@link Netpoll#netpoll} for P {@code p}: true if it made something runnable, which is then
     * in this P's run queue for findRunnable to take. Go runs the first of netpoll's list and
     * injects the rest; here the list holds poll goroutines, each put in runnext as a ready
     * would (the last one runs next, inheriting the slice; the ones it displaced queue at the
     * tail, and the P's hand-off when that one enters its blocking syscall gives them an M).
     */
    private boolean netpollHere(Netpoll np, M m, P p, long delay) {
        TaskBatch list = m.netpollList;
        np.netpoll(p.id, delay, list);
        int n = list.size();
        if (n == 0) {
            return false;
        }
        SchedTrace.netpollBatch(this, p.id, n, io.gmp4j.runtime.events.NetpollBatchEvent.FIND_RUNNABLE);
        Runnable[] items = list.array();
        for (int i = 0; i < n; i++) {
            runqput(p, items[i], true);
        }
        list.clear();
        p.netpollRan = p.tasksRun + 1; // the poll goroutine's own run
        return true;
    }

    /**
     * Go's gcstopm: gives the M's P to a stop-the-world (pidleput stops it while gcwaiting)
     * and sleeps until the world restarts and hands it a P. False if the runtime closed.
     */
    private boolean gcstopm(M m) {
        if (m.spinning) {
            m.spinning = false;
            if (nmspinning.decrementAndGet() < 0) {
                throw new InternalError("gcstopm: negative nmspinning");
            }
        }
        lock.lock();
        try {
            pidleput(releasep(m));
        } finally {
            lock.unlock();
        }
        return stopm(m);
    }

    private Runnable notInherited(M m, P p, Runnable r) {
        m.inheritTime = false;
        p.runnextChain = 0;
        return r;
    }

    /**
     * Go's stealWork: 4 passes over all Ps in a random order (random start, coprime stride),
     * skipping idle Ps; the last pass also runs the victims' due timers and may take runnext.
     */
    private Runnable stealWork(M m, P p, long now) {
        // One allp for the whole steal (see the field); the strides may belong to the previous
        // length for a pass around a resize: a stride not coprime to n visits fewer Ps, and
        // pos stays below n either way.
        P[] all = allp;
        int n = all.length;
        for (int i = 0; i < STEAL_TRIES; i++) {
            boolean stealTimersOrRunNextG = i == STEAL_TRIES - 1;
            int start = m.nextRandom() % n;
            int[] cp = coprimes;
            int stride = cp[m.nextRandom() % cp.length];
            int pos = start;
            for (int k = 0; k < n; k++, pos = (pos + stride) % n) {
                if (life.closed) {
                    return null;
                }
                P p2 = all[pos];
                if (p2 == p) {
                    continue;
                }
                // Steal timers from p2. This call to runDue is the only place where we might run
                // another P's timers; their callbacks ready goroutines into our own queue.
                if (stealTimersOrRunNextG && p2.timers.when0 != 0 && p2.timers.runDue(now) > 0) {
                    Runnable r = p.runq.get(p.got, true);
                    if (r != null) {
                        return r;
                    }
                }
                // Don't bother to attempt to steal if p2 is idle.
                if (!isIdle(p2)) {
                    // Read the victim's status only when it matters (runnext on the last pass):
                    // its owner writes that cache line twice per task, and spinning thieves
                    // reading it on every pass would keep stealing the line from the owner.
                    boolean running = stealTimersOrRunNextG && P.state(p2.status()) != P.IDLE;
                    Runnable r = p.runq.stealFrom(p2.runq, stealTimersOrRunNextG, running, p.stolenScratch);
                    if (r != null) {
                        SchedTrace.steal(this, p, p2, p.stolenScratch[0]);
                        p.steals++;
                        p.stolenTasks += p.stolenScratch[0];
                        return r;
                    }
                }
            }
        }
        return null;
    }

    /** Go's checkRunqsNoP: after dropping spinning, take an idle P if any P has queued work. */
    private P checkRunqsNoP() {
        for (P p2 : allp) {
            if (!isIdle(p2) && !p2.runq.isEmpty()) {
                return pidlegetLocked();
            }
        }
        // Timers due on any P also need an M with a P (Go's checkTimersNoP).
        long now = System.nanoTime();
        for (P p2 : allp) {
            long w = p2.timers.when0;
            if (w != 0 && w - now <= 0) {
                return pidlegetLocked();
            }
        }
        return null;
    }

    long earliestTimer() {
        long min = 0;
        for (P p2 : allp) {
            long w = p2.timers.when0;
            if (w != 0 && (min == 0 || w - min < 0)) {
                min = w;
            }
        }
        return min;
    }

    // =====================================================================================
    // Timers
    // =====================================================================================

    void addTimer(RuntimeTimer t, long when) {
        if (life.closed) {
            throw new RejectedExecutionException("gmp4j runtime '" + name + "' is closed: cannot arm a timer");
        }
        M m = Carrier.currentM();
        P p = (m != null && m.sched == this) ? m.p : null;
        while (true) {
            if (p == null) {
                P[] all = allp;
                p = all[(timerRoundRobin.getAndIncrement() & Integer.MAX_VALUE) % all.length];
            }
            int added = p.timers.add(t, when);
            if (added == Timers.GONE) {
                p = null; // a P that GOMAXPROCS removed (read from a stale allp or a lost m.p)
                continue;
            }
            if (added == Timers.EARLIEST) {
                wakeNetPoller(when);
            }
            return;
        }
    }

    /**
     * Go's wakeNetPoller: makes sure an M will run timers due at {@code when}: interrupts the
     * blocked poller if it sleeps past {@code when}, or starts an M if nobody polls.
     */
    void wakeNetPoller(long when) {
        Netpoll np = netpoll;
        if (np != null) {
            np.netpollBreak(when); // a poll blocked past `when` returns; cheap when none is
        }
        if (lastpoll.get() == 0) {
            long pu = pollUntil;
            if (pu == 0 || pu - when > 0) {
                timerSleep.wakeup();
            }
        } else {
            wakep();
        }
    }

}
