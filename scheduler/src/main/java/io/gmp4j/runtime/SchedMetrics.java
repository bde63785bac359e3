package io.gmp4j.runtime;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The raw figures behind {@code io.gmp4j.Metrics} (Go's {@code runtime/metrics} {@code /sched/}
 * names), read from a scheduler: the goroutine state counts, the threads, the latency
 * histogram. For {@code io.gmp4j.GoRuntime#metrics}, not a user API.
 *
 * <p><b>Goroutine states.</b> One walk over the goroutine registry, classifying each live
 * goroutine by its virtual thread's state as Go classifies a g by its status: mounted on an M
 * (Go's {@code _Grunning}) is running, queued to run (started, unparked, yielded) is runnable,
 * parked (in a gmp4j wait or a JDK one, a timed one included) is waiting, and inside
 * {@code Syscall.blocking} is not-in-go (Go's {@code _Gsyscall}), whatever its thread does. A
 * leaked goroutine ({@link LeakProfile}) is waiting. The walk reads racily, as Go's counts are
 * approximate: a goroutine moving meanwhile is counted in one state or the other; while nothing
 * moves the counts are exact and add up to the live count. Without the registry there is no
 * walk and no state counts.
 */
public final class SchedMetrics {
    /** Index of each state count in {@link #goroutineStates}'s answer. */
    public static final int RUNNING = 0;
    public static final int RUNNABLE = 1;
    public static final int WAITING = 2;
    public static final int NOT_IN_GO = 3;

    /** VirtualThread.state -> one of the indexes above; -1: ended or not yet classified. */
    private static final VarHandle VT_STATE;
    private static final byte[] CLASS_OF;
    private static final int SUSPENDED_MASK;

    static {
        VarHandle state = null;
        byte[] classes = null;
        int suspended = 0;
        try {
            Class<?> vt = Class.forName("java.lang.VirtualThread");
            MethodHandles.Lookup l = MethodHandles.privateLookupIn(vt, MethodHandles.lookup());
            state = l.findVarHandle(vt, "state", int.class);
            Map<String, Integer> byName = new HashMap<>();
            for (String n : List.of("NEW", "STARTED", "RUNNING", "PARKING", "PARKED", "PINNED", "TIMED_PARKING",
                    "TIMED_PARKED", "TIMED_PINNED", "UNPARKED", "YIELDING", "YIELDED", "BLOCKING", "BLOCKED",
                    "UNBLOCKED", "WAITING", "WAIT", "TIMED_WAITING", "TIMED_WAIT", "TERMINATED", "SUSPENDED")) {
                try {
                    byName.put(n, (int) l.findStaticVarHandle(vt, n, int.class).get());
                } catch (ReflectiveOperationException absent) {
                    // a state this JDK does not have
                }
            }
            Integer s = byName.remove("SUSPENDED");
            suspended = s == null ? 0 : s;
            int max = 0;
            for (int v : byName.values()) {
                max = Math.max(max, v);
            }
            classes = new byte[max + 1];
            java.util.Arrays.fill(classes, (byte) -1);
            // Mounted: running, or on its way off the carrier (parking, yielding, blocking).
            put(classes, byName, RUNNING, "RUNNING", "PARKING", "TIMED_PARKING", "YIELDING", "BLOCKING",
                    "WAITING", "TIMED_WAITING");
            // Queued for a carrier.
            put(classes, byName, RUNNABLE, "NEW", "STARTED", "UNPARKED", "YIELDED", "UNBLOCKED");
            // Off any carrier until someone wakes it (or pinned, holding its carrier while it waits).
            put(classes, byName, WAITING, "PARKED", "TIMED_PARKED", "PINNED", "TIMED_PINNED", "BLOCKED", "WAIT",
                    "TIMED_WAIT");
        } catch (ReflectiveOperationException | RuntimeException e) {
            state = null; // classified by Thread.getState() instead (see classify)
        }
        VT_STATE = state;
        CLASS_OF = classes;
        SUSPENDED_MASK = suspended;
    }

    private static void put(byte[] classes, Map<String, Integer> byName, int cls, String... names) {
        for (String n : names) {
            Integer v = byName.get(n);
            if (v != null) {
                classes[v] = (byte) cls;
            }
        }
    }

    private SchedMetrics() {
    }

    /**
     * Go's {@code /sched/goroutines/{running,runnable,waiting,not-in-go}} for {@code s}, indexed
     * by {@link #RUNNING}, {@link #RUNNABLE}, {@link #WAITING} and {@link #NOT_IN_GO}; null when
     * the runtime keeps no goroutine registry.
     */
    public static long[] goroutineStates(Scheduler s) {
        GoroutineRegistry reg = s.allgs;
        if (reg == null) {
            return null;
        }
        long[] n = new long[4];
        for (G g : reg.snapshot()) {
            int c = classify(g);
            if (c >= 0) {
                n[c]++;
            }
        }
        for (LeakProfile.Ref r : reg.refs()) {
            if (r.refersTo(null)) {
                n[WAITING]++; // leaked: asleep for ever
            }
        }
        return n;
    }

    private static int classify(G g) {
        Thread t = g.thread;
        if (t == null || g.dead) {
            return -1;
        }
        if (g.inSyscall) {
            return NOT_IN_GO;
        }
        if (VT_STATE != null && t.isVirtual()) {
            int st = (int) VT_STATE.getVolatile(t) & ~SUSPENDED_MASK;
            return st >= 0 && st < CLASS_OF.length ? CLASS_OF[st] : -1;
        }
        return switch (t.getState()) {
            case NEW -> RUNNABLE;
            case RUNNABLE -> RUNNING;
            case BLOCKED, WAITING, TIMED_WAITING -> WAITING;
            case TERMINATED -> -1;
        };
    }

    /** Go's {@code /sched/threads/total:threads}: the runtime's Ms plus sysmon. */
    public static long threads(Scheduler s) {
        s.lock.lock();
        try {
            return s.mcount + 1L;
        } finally {
            s.lock.unlock();
        }
    }

    /** Go's {@code /sched/goroutines-created:goroutines}: goroutines started since the runtime started. */
    public static long created(Scheduler s) {
        long created = s.spawnedExternally.sum();
        for (M m : s.allmSnapshot) {
            created += m.spawned();
        }
        return created;
    }

    /**
     * The scheduling-latency histogram ({@link SchedLatency}): {@link #latencyBoundaries()}'s
     * length - 1 counts, then the sum of the sampled latencies in nanoseconds.
     */
    public static long[] latencies(Scheduler s) {
        return SchedLatency.read(s);
    }

    /** Go's bucket boundaries of {@code /sched/latencies:seconds}, in seconds, from -Inf to +Inf. */
    public static double[] latencyBoundaries() {
        return SchedLatency.boundaries();
    }
}
