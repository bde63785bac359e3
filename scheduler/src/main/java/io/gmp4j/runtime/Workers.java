package io.gmp4j.runtime;

import java.util.List;

/**
 * Who runs: the idle P list and the Ms (proc.go's pidleput/pidleget, wakep, startm, mstart,
 * stopm, acquirep/releasep, handoffp), the spinning-M protocol the {@link Scheduler}'s class
 * comment describes, and CPU pinning of carriers.
 */
abstract sealed class Workers extends SchedulerState permits Placement {
    Workers(Scheduler.Config c) {
        super(c);
    }

    // =====================================================================================
    // Idle P list (caller holds lock)
    // =====================================================================================

    void pidleput(P p) {
        if (gcwaiting) {
            // Go's handoffp and gcstopm during a stop-the-world: the P stops instead of idling,
            // with whatever its queue holds (ProcResize redistributes it).
            p.setStatus(P.pack(P.epoch(p.status()), P.GCSTOP));
            p.m = null;
            return;
        }
        if (!p.runq.isEmpty()) {
            throw new InternalError("pidleput: P" + p.id + " has non-empty run queue");
        }
        p.setStatus(P.pack(P.epoch(p.status()), P.IDLE));
        p.m = null;
        pidle[pidleTop++] = p;
        idlepMask.getAndAccumulate(p.id >>> 6, 1L << (p.id & 63), (a, b) -> a | b);
        npidle = npidle + 1; // volatile store under lock; readers outside take it as a hint
    }

    P pidleget() {
        if (pidleTop == 0) {
            return null;
        }
        P p = pidle[--pidleTop];
        pidle[pidleTop] = null;
        idlepMask.getAndAccumulate(p.id >>> 6, ~(1L << (p.id & 63)), (a, b) -> a & b);
        npidle = npidle - 1;
        return p;
    }

    /** pidleget taking the lock itself. */
    P pidlegetLocked() {
        lock.lock();
        try {
            return pidleget();
        } finally {
            lock.unlock();
        }
    }

    boolean isIdle(P p) {
        return (idlepMask.get(p.id >>> 6) & (1L << (p.id & 63))) != 0;
    }

    // =====================================================================================
    // M management: wakep, startm, stopm, handoffp
    // =====================================================================================

    /**
     * Go's wakep: tries to add one more spinning M if there is an idle P and no M is spinning.
     */
    void wakep() {
        // Not in Go: with no idle P there is nobody to wake. Safe because the caller put its
        // work under the lock before this read: an M that drops its P either did so before that
        // put (then npidle is no longer 0 here) or checks the global queue under the lock first.
        if (npidle == 0) {
            return;
        }
        // Be conservative about spinning threads: only start one if none exists already.
        if (nmspinning.get() != 0 || !nmspinning.compareAndSet(0, 1)) {
            return;
        }
        P p;
        lock.lock();
        try {
            p = pidleget();
            if (p == null) {
                // Go's pidlegetSpinning. Our nmspinning of 1 made every wakep since the CAS
                // return early, trusting a spinning M to find their work; there is none. So,
                // in the same critical section: the next M to drop its P spins instead (it
                // checks needspinning under this lock), and the count goes back to 0. Dropped
                // after the unlock instead, both Ms could release their Ps without spinning,
                // each seeing our 1, and work queued meanwhile would wait for nobody: a lost
                // wake-up (NeedSpinningJcstress; its broken twin drops it after the unlock).
                needspinning = true;
                if (nmspinning.decrementAndGet() < 0) {
                    throw new InternalError("wakep: negative nmspinning");
                }
                return;
            }
        } finally {
            lock.unlock();
        }
        startm(p, true, false);
    }

    /**
     * Go's startm: schedules an M to run {@code p}, reusing an idle M or creating one. With
     * {@code spinning}, the caller has already counted the M in nmspinning.
     */
    void startm(P p, boolean spinning, boolean forHandoff) {
        M nm;
        lock.lock();
        try {
            if (p == null) {
                p = pidleget();
                if (p == null) {
                    if (spinning && nmspinning.decrementAndGet() < 0) {
                        throw new InternalError("startm: negative nmspinning");
                    }
                    return;
                }
            }
            if (life.closed) {
                if (p.runq.isEmpty()) {
                    pidleput(p);
                } // else: the runtime is gone, and its queued tasks with it (close abandons them)
                return;
            }
            int n = midle.size();
            if (n > 0) {
                nm = midle.remove(n - 1);
                nmidle--;
                Checkdead.mstarted(nm);
            } else {
                boolean capped = forHandoff ? mHandoffCount >= maxHandoffThreads : mcount >= maxThreads;
                if (capped) {
                    reportMCap(forHandoff);
                    pidleput(p);
                    if (spinning && nmspinning.decrementAndGet() < 0) {
                        throw new InternalError("startm: negative nmspinning");
                    }
                    return;
                }
                nm = new M(self(), mcount, forHandoff);
                if (allgs != null) {
                    nm.allgs = allgs.newSegment();
                }
                mcount++;
                Checkdead.mstarted(nm);
                if (forHandoff) {
                    mHandoffCount++;
                }
                allm.add(nm);
                allmSnapshot = allm.toArray(new M[0]);
                mWakeups.increment();
                nm.nextSpinning = spinning;
                nm.nextp = p;
                nm.start();
                return;
            }
        } finally {
            lock.unlock();
        }
        mWakeups.increment();
        nm.nextSpinning = spinning;
        nm.nextp = p; // volatile store, published before the wake-up
        nm.notewakeup();
    }

    private void reportMCap(boolean forHandoff) {
        if (!mCapReported) {
            mCapReported = true;
            System.err.println("gmp4j: runtime '" + name + "' reached its " + (forHandoff
                    ? "handoff thread cap (" + maxHandoffThreads + "): a P stays with a blocked goroutine"
                    : "thread cap maxThreads=" + maxThreads) + "; raise it with the runtime builder");
        }
    }

    /** Whether the M thread cap was ever hit (reported once on stderr). */
    public boolean threadCapReached() {
        return mCapReported;
    }

    /** Entry of a new M thread: Go's mstart. */
    void mstart(M m) {
        try {
            P p = m.nextp;
            m.nextp = null;
            acquirep(m, p);
            if (m.nextSpinning) {
                m.spinning = true;
            }
            schedule(m);
        } finally {
            mexit(m);
        }
    }

    private void mexit(M m) {
        List<Scheduler.MainWait> deadlocked = null;
        lock.lock();
        try {
            // An M that exits running (the runtime closed under it) leaves the process-wide
            // count; if it was the last running M, it checks for the other runtimes.
            deadlocked = Checkdead.mstopped(m);
        } finally {
            lock.unlock();
        }
        Checkdead.notifyDeadlock(deadlocked);
        if (m.spinning) {
            m.spinning = false;
            nmspinning.decrementAndGet();
        }
        P p = m.p;
        if (p != null) {
            p.setStatus(P.pack(P.epoch(p.status()) + 1, P.DEAD));
            p.m = null;
            m.p = null;
        }
    }

    /**
     * Go's stopm: puts the M on the idle list and sleeps until startm hands it a P. Returns
     * false if the runtime closed meanwhile.
     */
    boolean stopm(M m) {
        if (m.p != null) {
            throw new InternalError("stopm: M holds P" + m.p.id);
        }
        if (allgs != null) {
            // Going to sleep is the cheap moment to drop ended goroutines from the registry
            // (this M's segment is its alone): otherwise a burst of goroutines stays reachable,
            // with their threads, until the segment next fills.
            allgs.sweepIdle(m, liveCount);
        }
        List<Scheduler.MainWait> deadlocked = null;
        lock.lock();
        try {
            if (life.closed) {
                return false;
            }
            midle.add(m);
            nmidle++;
            deadlocked = Checkdead.mstopped(m);
        } finally {
            lock.unlock();
        }
        Checkdead.notifyDeadlock(deadlocked);
        mSleeps.increment();
        m.notesleep();
        if (life.closed) {
            return false;
        }
        P p = m.nextp;
        m.nextp = null;
        acquirep(m, p);
        if (m.nextSpinning) {
            m.spinning = true;
        }
        return true;
    }

    /** Go's acquirep: binds an idle P to the M, starting a new ownership epoch. */
    void acquirep(M m, P p) {
        if (p == null) {
            throw new InternalError("acquirep: no P");
        }
        long e = P.epoch(p.status()) + 1;
        p.m = m;
        m.epoch = e;
        m.p = p;
        // volatile store: later owner reads of shared state must not float above it
        p.setStatus(P.pack(e, P.RUNNING));
        if (processCpus != null) {
            pinToCpuOf(m, p);
        }
    }

    /**
     * Pinned mode: moves the calling thread, which is M {@code m} (acquirep runs only on the M's
     * own thread, the scheduler loop or a goroutine mounted on it), to P {@code p}'s CPU. An M
     * that keeps its P, or takes one with the same CPU, makes no system call.
     */
    private void pinToCpuOf(M m, P p) {
        int cpu = processCpus[p.id % processCpus.length];
        if (m.pinnedCpu == cpu) {
            return;
        }
        int errno = affinity.pinCurrentThread(cpu);
        if (errno == 0) {
            m.pinnedCpu = cpu;
            carrierPins.increment();
        } else if (!pinErrorReported) {
            // the CPU went offline or left the cpuset since start: run unpinned, say so once
            pinErrorReported = true;
            System.err.println("gmp4j: runtime '" + name + "' could not pin an M to CPU " + cpu
                    + " (sched_setaffinity errno " + errno + "); that M runs unpinned");
        }
    }

    /**
     * Pinned mode: lets the calling thread run on every CPU of the process again. A thread
     * inherits its creator's affinity (Linux's rule), so a thread the runtime starts from a
     * pinned M, other than an M (which pins itself to its P's CPU), calls this first: sysmon,
     * the poller thread. No-op when carriers are not pinned.
     */
    void unpinCurrentThread() {
        if (processCpus != null) {
            affinity.pinCurrentThread(processCpus);
        }
    }

    /** The CPU each P's M is pinned to, by P id, for {@code n} Ps; empty unless carriers are pinned. */
    int[] pinnedCpus(int n) {
        if (processCpus == null) {
            return new int[0];
        }
        int[] cpus = new int[n];
        for (int i = 0; i < n; i++) {
            cpus[i] = processCpus[i % processCpus.length];
        }
        return cpus;
    }

    /** Go's releasep: unbinds the M's P (the caller puts it on the idle list). */
    P releasep(M m) {
        P p = m.p;
        m.p = null;
        p.m = null;
        return p;
    }

    /**
     * Go's handoffp: hands off a P taken from a goroutine in a syscall or stuck running. Starts
     * an M for it if there is work anywhere, otherwise idles it.
     */
    void handoffp(P p) {
        handoffs.increment();
        startOrIdle(p, true);
    }

    /**
     * Releases {@code p}, just taken from a poll goroutine entering a blocking turn that an idle
     * M asked for, the way Go's {@code findRunnable} releases its P before blocking in netpoll.
     * Unlike {@link #handoffp} it starts no spinning M for an empty P while the others are busy:
     * the M that asked for the turn has just looked everywhere (local, global, netpoll, steal)
     * and found nothing, so that M would find nothing too and go back to sleep, a futex wake
     * and sleep per idle turn (0.24 per request through the proxy at 16 connections). Work that
     * arrives later finds the P idle and goes through {@link #wakep}. Work that arrived since
     * (another poll goroutine readied behind this one, a global task) gets an M as in handoffp.
     */
    void releaseIdle(P p) {
        startOrIdle(p, false);
    }

    /** handoffp's body; {@code spinIfAllBusy}: Go's extra spinning M when no P is idle. */
    private void startOrIdle(P p, boolean spinIfAllBusy) {
        // if it has local work, start it straight away
        if (!p.runq.isEmpty() || runq.size() != 0) {
            startm(p, false, true);
            return;
        }
        // no local work: start a spinning M only if there are no spinning or idle Ms to help
        if (spinIfAllBusy && nmspinning.get() + npidle == 0 && nmspinning.compareAndSet(0, 1)) {
            startm(p, true, true);
            return;
        }
        long when = 0;
        boolean start;
        lock.lock();
        try {
            // Go also keeps an M when this is the last running P and nobody polls the network;
            // here no M polls the network (a poller thread or a per-P poll goroutine does).
            start = runq.size() != 0;
            if (!start) {
                when = p.timers.when0;
                pidleput(p);
            }
        } finally {
            lock.unlock();
        }
        if (start) {
            startm(p, false, true);
            return;
        }
        if (when != 0) {
            wakeNetPoller(when);
        }
    }

}
