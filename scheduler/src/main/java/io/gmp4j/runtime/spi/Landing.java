package io.gmp4j.runtime.spi;

/**
 * Where a readied goroutine ({@link NetpollHost#ready(io.gmp4j.runtime.G, Landing)}) or a
 * plain task ({@link io.gmp4j.runtime.Scheduler#execute(Runnable, Landing)}) lands, chosen by
 * the caller. The names are proc.go's: {@code runqput(pp, gp, next)} with
 * {@code next} true puts the goroutine in the P's {@code runnext} slot, false at the tail of its
 * local queue; Go's {@code ready} follows with {@code wakep}. Off an M of the runtime (a
 * platform thread, sysmon) every landing is the global queue and {@code wakep}, as any wake-up
 * from outside. A netpoll result list is the other place a goroutine can land:
 * {@link NetpollHost#ready(io.gmp4j.runtime.G, TaskBatch)}.
 */
public enum Landing {
    /** Go's {@code ready}: this P's runnext, then {@code wakep}. What a plain {@code G.ready()} does. */
    RUNNEXT,
    /**
     * This P's runnext without {@code wakep}: for a goroutine the caller's M runs next anyway
     * (a poll goroutine readied by {@code findRunnable}); starting an M would have it spin and
     * find nothing.
     */
    RUNNEXT_NO_WAKEP,
    /**
     * The tail of this P's local queue, without {@code wakep}: the goroutine runs after every
     * goroutine already runnable here (a poll goroutine wanted by a goroutine that just handed
     * its loop a write: the others hand theirs over first, and one turn sends them all).
     */
    LOCAL_TAIL,
    /**
     * This P's runnext, with {@code wakep} only when other work is queued here: for a task the
     * calling task hands its M to as it ends (a behaviour actor telling an idle actor its last
     * message). With nothing else here this M runs it next and a woken M would find nothing;
     * with other work queued, other Ps are woken to share it as after {@link #RUNNEXT}.
     */
    HANDOFF
}
