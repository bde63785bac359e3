package io.gmp4j.runtime;

import java.util.Comparator;
import java.util.List;

/**
 * Go's goroutine dump: one block per goroutine,
 * {@code goroutine 17 [chan receive, 2 minutes]:} followed by its stack.
 */
final class GoroutineDump {
    private GoroutineDump() {
    }

    static String of(Scheduler s) {
        return of(s, g -> true);
    }

    /** The dump of the live goroutines of {@code s} that {@code which} accepts. */
    static String of(Scheduler s, java.util.function.Predicate<G> which) {
        List<G> gs = s.allGoroutines();
        gs.removeIf(which.negate());
        gs.sort(Comparator.comparingLong(g -> g.goid));
        StringBuilder sb = new StringBuilder();
        long now = System.nanoTime();
        for (G g : gs) {
            Thread t = g.thread;
            StackTraceElement[] stack = t.getStackTrace();
            sb.append("goroutine ").append(g.goid).append(" [").append(status(g, t));
            String reason = g.waitReason;
            if (reason != null) {
                long minutes = (now - g.waitSince) / 60_000_000_000L;
                if (minutes >= 1) {
                    sb.append(", ").append(minutes).append(minutes == 1 ? " minute" : " minutes");
                }
            }
            sb.append("]:\n");
            for (StackTraceElement e : stack) {
                sb.append('\t').append(e).append('\n');
            }
            sb.append('\n');
        }
        int leaked = LeakProfile.appendLeaked(s, sb);
        if (gs.isEmpty() && leaked == 0 && s.numGoroutine() > 0 && s.allgs == null) {
            sb.append("(").append(s.numGoroutine()).append(" goroutines; the goroutine registry is off)\n");
        }
        return sb.toString();
    }

    private static String status(G g, Thread t) {
        String reason = g.waitReason;
        if (reason != null) {
            return reason;
        }
        if (g.inSyscall) {
            return "syscall";
        }
        return switch (t.getState()) {
            case NEW -> "runnable";
            case RUNNABLE -> "running";
            case BLOCKED -> "sync.Mutex.Lock";
            case WAITING -> "park";
            case TIMED_WAITING -> "sleep";
            case TERMINATED -> "dead";
        };
    }
}
