package io.gmp4j;

import java.util.Arrays;

/**
 * A snapshot of a runtime's scheduler: the fields of Go's {@code schedtrace} line plus the
 * counters that show what the scheduler decided. Counters are totals since the runtime
 * started; per-P values are indexed by P id.
 *
 * @param uptimeMillis       milliseconds since the runtime started
 * @param gomaxprocs         number of Ps
 * @param idleProcs          Ps on the idle list
 * @param threads            Ms plus sysmon
 * @param spinningThreads    Ms spinning for work
 * @param idleThreads        Ms parked on the idle list
 * @param handoffThreads     Ms created to take a handed-off P (capped separately)
 * @param globalQueue        tasks in the global run queue
 * @param localQueues        tasks in each P's local run queue (runnext included)
 * @param tasksRun           tasks each P has run
 * @param goroutinesCreated  goroutines started
 * @param goroutines         goroutines alive now
 * @param steals             successful steals
 * @param stolen             tasks moved by steals
 * @param runnextHits        tasks run from runnext, inheriting the time slice
 * @param runnextCapped      times the runnext chain hit its cap and the ring got a turn
 * @param overflows          runqputslow calls (half a ring moved to the global queue)
 * @param fairnessPicks      tasks taken from the global queue by the every-61st-tick check
 * @param handoffs           Ps handed off from a syscall or a stuck goroutine
 * @param preemptRequests    preempt flags set by sysmon
 * @param injections         tasks injected in batches (netpoll, injectglist)
 * @param mWakeups           idle Ms woken or new Ms started to run a P ({@code startm})
 * @param mSleeps            Ms that went to sleep on the idle list ({@code stopm})
 * @param threadCapReached   whether an M cap was hit (reported once on stderr)
 * @param pinnedCpus         the CPU each P's M is pinned to, by P id; empty unless carriers are pinned
 * @param carrierPins        times an M moved itself to its new P's CPU ({@code sched_setaffinity} calls)
 * @param netpoll            the attached network poller's transport and load, or null when none is attached
 */
public record SchedStats(long uptimeMillis, int gomaxprocs, int idleProcs, int threads, int spinningThreads,
                         int idleThreads, int handoffThreads, int globalQueue, int[] localQueues, long[] tasksRun,
                         long goroutinesCreated, long goroutines, long steals, long stolen, long runnextHits,
                         long runnextCapped, long overflows, long fairnessPicks, long handoffs,
                         long preemptRequests, long injections, long mWakeups, long mSleeps,
                         boolean threadCapReached, int[] pinnedCpus, long carrierPins,
                         String netpoll) {

    /**
     * Go's schedtrace line, e.g.
     * {@code SCHED 1004ms: gomaxprocs=2 idleprocs=0 threads=5 spinningthreads=0 idlethreads=1 runqueue=0 [1 0]}.
     */
    public String schedtrace() {
        StringBuilder sb = new StringBuilder(96);
        sb.append("SCHED ").append(uptimeMillis).append("ms: gomaxprocs=").append(gomaxprocs)
                .append(" idleprocs=").append(idleProcs)
                .append(" threads=").append(threads)
                .append(" spinningthreads=").append(spinningThreads)
                .append(" idlethreads=").append(idleThreads)
                .append(" runqueue=").append(globalQueue)
                .append(" [");
        for (int i = 0; i < localQueues.length; i++) {
            if (i > 0) {
                sb.append(' ');
            }
            sb.append(localQueues[i]);
        }
        return sb.append(']').toString();
    }

    /** The counters as one line, for logs and benchmarks. */
    public String counters() {
        return "goroutines=" + goroutines + " created=" + goroutinesCreated + " steals=" + steals
                + " stolen=" + stolen + " runnextHits=" + runnextHits + " runnextCapped=" + runnextCapped
                + " overflows=" + overflows + " fairnessPicks=" + fairnessPicks + " handoffs=" + handoffs
                + " preemptRequests=" + preemptRequests + " injections=" + injections
                + " mwakeups=" + mWakeups + " msleeps=" + mSleeps
                + " handoffThreads=" + handoffThreads + " tasksRun=" + Arrays.toString(tasksRun)
                + (pinnedCpus.length == 0 ? "" : " pinnedCpus=" + Arrays.toString(pinnedCpus) + " carrierPins=" + carrierPins)
                + (netpoll == null ? "" : " netpoll=[" + netpoll + "]");
    }

    @Override
    public String toString() {
        return schedtrace() + " " + counters();
    }
}
