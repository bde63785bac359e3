package io.gmp4j.runtime;

import io.gmp4j.runtime.events.CarrierSyncEvent;
import io.gmp4j.runtime.events.GoroutineCreateEvent;
import io.gmp4j.runtime.events.GoroutineEndEvent;
import io.gmp4j.runtime.events.GoroutineParkEvent;
import io.gmp4j.runtime.events.GoroutineReadyEvent;
import io.gmp4j.runtime.events.GoroutineRunEvent;
import io.gmp4j.runtime.events.HandoffEvent;
import io.gmp4j.runtime.events.NetpollBatchEvent;
import io.gmp4j.runtime.events.PreemptRequestEvent;
import io.gmp4j.runtime.events.RunqOverflowEvent;
import io.gmp4j.runtime.events.StealEvent;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;

/**
 * The scheduler's side of its JFR events ({@link io.gmp4j.runtime.events}): one call per
 * decision point, each first asking its event's {@code enabled()} (a static read; no allocation,
 * nothing else computed, while the event is off), then reading what the event reports from the
 * runtime's G, M and P.
 *
 * <p>A task is a virtual thread's {@code runContinuation}, a method reference bound to its
 * thread; {@link #goroutineOf} reads that thread out of it (by reflection, once per class; only
 * while an event that needs it records) to name the goroutine a run or a ready is about.
 */
final class SchedTrace {
    private SchedTrace() {
    }

    // =====================================================================================
    // Goroutines: create, end, park
    // =====================================================================================

    /** Go's newproc: {@code g} was created by the caller (on {@code m}, or null off the runtime's Ms). */
    static void create(SchedulerState s, M m, G g) {
        if (!GoroutineCreateEvent.enabled()) {
            return;
        }
        G parent = Carrier.gOf(Thread.currentThread());
        carrierSync();
        GoroutineCreateEvent.emit(s.name, g.goid, parent == null ? 0 : parent.goid, pidOf(s, m));
    }

    /** Go's goexit: {@code g}'s function returned; the caller is {@code g} itself. */
    static void end(SchedulerState s, G g) {
        if (!GoroutineEndEvent.enabled()) {
            return;
        }
        carrierSync();
        GoroutineEndEvent.emit(s.name, g.goid, pidOf(s, Carrier.currentM()));
    }

    /** Go's gopark begins, {@code g}'s wait reason set; null while the event is off. */
    static GoroutineParkEvent parkBegin(G g) {
        if (!GoroutineParkEvent.enabled()) {
            return null;
        }
        return GoroutineParkEvent.start(g.sched.name, g.goid, waitReason(g));
    }

    /** The park {@link #parkBegin} began has returned. */
    static void parkEnd(GoroutineParkEvent e) {
        if (e != null) {
            carrierSync();
            e.finish();
        }
    }

    /** The one read of {@link G#waitReason} for the events: its text, whatever its type. */
    static String waitReason(G g) {
        return String.valueOf(g.waitReason);
    }

    // =====================================================================================
    // Ready and run
    // =====================================================================================

    /**
     * {@code task} is about to be queued at {@code landing} (a {@link GoroutineReadyEvent}
     * landing) by the calling thread. Called before the put, so that the event precedes the
     * task's next run.
     */
    static void ready(SchedulerState s, Runnable task, String landing) {
        if (!GoroutineReadyEvent.enabled()) {
            return;
        }
        G woken = goroutineOf(task);
        long wokenId = woken == null ? 0 : woken.goid;
        long waker;
        if (landing.equals(GoroutineReadyEvent.YIELD_LOCAL) || landing.equals(GoroutineReadyEvent.YIELD_GLOBAL)) {
            waker = wokenId; // the carrier re-queues the task that just unmounted
        } else {
            G w = Carrier.gOf(Thread.currentThread());
            waker = w == null ? 0 : w.goid;
        }
        carrierSync();
        GoroutineReadyEvent.emit(s.name, wokenId, waker, landing, pidOf(s, Carrier.currentM()));
    }

    /** Go's execute: {@code m} is about to run {@code r} on {@code p}; null while the event is off. */
    static GoroutineRunEvent runBegin(SchedulerState s, M m, P p, Runnable r) {
        if (!GoroutineRunEvent.enabled()) {
            return null;
        }
        G g = goroutineOf(r);
        return GoroutineRunEvent.start(s.name, g == null ? 0 : g.goid, p.id, m.mid, m.inheritTime,
                g == null ? r.getClass() : null);
    }

    /** The run {@link #runBegin} began has returned. */
    static void runEnd(GoroutineRunEvent e) {
        if (e != null) {
            carrierSync();
            e.finish();
        }
    }

    // =====================================================================================
    // Scheduler decisions: steal, hand-off, preempt, overflow, netpoll
    // =====================================================================================

    /** Go's runqsteal: {@code p} took {@code count} tasks from {@code victim}. */
    static void steal(SchedulerState s, P p, P victim, int count) {
        if (StealEvent.enabled()) {
            carrierSync();
            StealEvent.emit(s.name, p.id, victim.id, count);
        }
    }

    /** Go's handoffp of {@code p}, for a {@link HandoffEvent} reason. */
    static void handoff(SchedulerState s, P p, String reason) {
        if (HandoffEvent.enabled()) {
            carrierSync();
            HandoffEvent.emit(s.name, p.id, reason);
        }
    }

    /** Sysmon set {@code p}'s preempt flag after seeing one task on it for {@code runningFor} ns. */
    static void preempt(SchedulerState s, P p, long runningFor) {
        if (PreemptRequestEvent.enabled()) {
            carrierSync();
            PreemptRequestEvent.emit(s.name, p.id, runningFor);
        }
    }

    /** Go's runqputslow: {@code p}'s full ring moved half of itself and the new task to the global queue. */
    static void overflow(SchedulerState s, P p) {
        if (RunqOverflowEvent.enabled()) {
            carrierSync();
            RunqOverflowEvent.emit(s.name, p.id, s.runqCapacity / 2 + 1);
        }
    }

    /** A poll made {@code n} goroutines runnable as one batch, for P {@code pid} (-1: none), from {@code source}. */
    static void netpollBatch(SchedulerState s, int pid, int n, String source) {
        if (n > 0 && NetpollBatchEvent.enabled()) {
            carrierSync();
            NetpollBatchEvent.emit(s.name, pid, n, source);
        }
    }

    /** {@link #netpollBatch} from the caller's own M's P. */
    static void netpollBatchHere(SchedulerState s, int n, String source) {
        if (n > 0 && NetpollBatchEvent.enabled()) {
            carrierSync();
            NetpollBatchEvent.emit(s.name, pidOf(s, Carrier.currentM()), n, source);
        }
    }

    /**
     * Before an event committed on an M's own thread (not a goroutine's): see
     * {@link CarrierSyncEvent}, the commit that absorbs JDK 25's drop of a carrier's first commit
     * after a virtual thread's. Sysmon and other platform threads carry no virtual threads.
     */
    private static void carrierSync() {
        if (Thread.currentThread() instanceof M) {
            CarrierSyncEvent.sync();
        }
    }

    // =====================================================================================
    // Who is who
    // =====================================================================================

    /** The id of {@code m}'s P when {@code m} is an M of {@code s} holding one, else -1. */
    private static int pidOf(SchedulerState s, M m) {
        P p = m == null || m.sched != s ? null : m.p;
        return p == null ? -1 : p.id;
    }

    /** How to read the thread out of one class of task: a getter, or null for tasks that are not threads'. */
    private record TaskClass(Class<?> type, MethodHandle thread) {
    }

    /** The last task class seen: every goroutine's task has the JDK's one class. Racy, benign. */
    private static volatile TaskClass taskClass;

    /** The goroutine whose virtual thread's continuation {@code task} is, or null for a plain task. */
    static G goroutineOf(Runnable task) {
        TaskClass tc = taskClass;
        if (tc == null || tc.type != task.getClass()) {
            tc = inspect(task.getClass());
            taskClass = tc;
        }
        if (tc.thread == null) {
            return null;
        }
        try {
            Object thread = (Object) tc.thread.invokeExact((Object) task);
            return thread instanceof Thread t ? Carrier.gOf(t) : null;
        } catch (Throwable e) {
            return null;
        }
    }

    /**
     * The getter of the thread a {@code VirtualThread} continuation task captures (the method
     * reference's one field, of type VirtualThread); none for any other class. Needs
     * {@code --add-opens java.base/java.lang}, which the runtime needs anyway.
     */
    private static TaskClass inspect(Class<?> type) {
        if (!type.getName().startsWith("java.lang.VirtualThread$")) {
            return new TaskClass(type, null);
        }
        for (Field f : type.getDeclaredFields()) {
            if (Thread.class.isAssignableFrom(f.getType())) {
                try {
                    f.setAccessible(true);
                    MethodHandle mh = MethodHandles.lookup().unreflectGetter(f)
                            .asType(MethodType.methodType(Object.class, Object.class));
                    return new TaskClass(type, mh);
                } catch (ReflectiveOperationException | RuntimeException e) {
                    return new TaskClass(type, null);
                }
            }
        }
        return new TaskClass(type, null);
    }
}
