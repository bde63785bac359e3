package io.gmp4j.actor;

import io.gmp4j.runtime.Scheduler;
import io.gmp4j.runtime.spi.Landing;

/**
 * A behaviour actor: the cell is also its own mailbox task, a plain {@code Runnable} that the
 * gmp4j scheduler runs directly on an M (no virtual thread, no continuation switch per
 * message). A send to an idle actor submits the task with {@link Scheduler#execute}: from a
 * goroutine or from a task on an M (another actor) it lands in that P's runnext slot, from any
 * other thread in the global queue. A run handles at most {@link #throughput} messages and
 * stops early when sysmon asks its P to give way ({@link Scheduler#preemptRequested}); if
 * messages remain, {@link #release} re-submits the task, which then queues at the tail of the
 * local run queue (the scheduler treats the running task's own re-submission as a yield).
 */
final class BehaviorCell<T> extends ActorCell<T> implements Runnable {
    private final Scheduler sched;
    final int throughput;
    /** Only the consumer (the running task) reads or writes it. */
    private Behavior<T> behavior;

    BehaviorCell(ActorSystem system, ActorCell<?> parent, Props props, Behavior<T> behavior) {
        super(system, parent, props, IDLE);
        if (behavior == null) {
            throw new NullPointerException("spawn: null behaviour");
        }
        this.sched = system.scheduler();
        this.throughput = props.throughput() > 0 ? props.throughput() : system.throughput();
        this.behavior = behavior;
    }

    /** A setup behaviour runs at once. */
    @Override
    void start() {
        if (behavior instanceof Markers.Setup<T>) {
            signal(); // takes the consumer role if no message did already; the run builds it
        }
    }

    @Override
    void resume() {
        // Told by a behaviour actor with nothing more to handle (threadring, ping-pong): it is
        // about to go idle and its M runs this actor next, so no other M is woken for it.
        if (Scheduler.currentTask() instanceof BehaviorCell<?> sender && sender != this && sender.mailbox.isEmpty()) {
            sched.execute(this, Landing.HANDOFF);
        } else {
            sched.execute(this);
        }
    }

    @Override
    public void run() {
        if (!dead && !stopping) {
            runBatch();
        }
        release();
    }

    private void runBatch() {
        if (behavior instanceof Markers.Setup<T> && !expandSetup()) {
            return;
        }
        int n = 0;
        while (true) {
            if (stopRequested) {
                beginStop(requestedStopReason(), false);
                return;
            }
            T m = take();
            if (m == null) {
                return;
            }
            Behavior<T> next;
            try {
                next = behavior.receive(ctx, m);
            } catch (Throwable t) {
                beginStop(t, true);
                return;
            }
            if (next != Markers.SAME) {
                if (next == Markers.STOPPED) {
                    beginStop(null, false);
                    return;
                }
                if (next == null) {
                    beginStop(new IllegalStateException("behaviour of " + name + " returned null (use Behavior.same())"), true);
                    return;
                }
                behavior = next;
                if (!expandSetup()) {
                    return;
                }
            }
            if (++n >= throughput || Scheduler.preemptRequested()) {
                return;
            }
        }
    }

    /** Builds setup behaviours; false if that failed or stopped the actor. */
    private boolean expandSetup() {
        while (behavior instanceof Markers.Setup<T> s) {
            Behavior<T> b;
            try {
                b = s.factory().apply(ctx);
            } catch (Throwable t) {
                beginStop(t, true);
                return false;
            }
            if (b == Markers.STOPPED) {
                beginStop(null, false);
                return false;
            }
            if (b == null || b == Markers.SAME) {
                beginStop(new IllegalStateException("setup of " + name + " returned " + (b == null ? "null" : "same()")), true);
                return false;
            }
            behavior = b;
        }
        return true;
    }
}
