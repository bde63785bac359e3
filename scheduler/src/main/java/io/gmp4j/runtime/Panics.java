package io.gmp4j.runtime;

import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.Set;

/**
 * Go's panic report for an exception that ended a goroutine:
 * <pre>
 * panic: java.lang.IllegalStateException: boom
 *
 * goroutine 7 [running]:
 * 	app.Worker.run(Worker.java:12)
 * 	...
 * caused by: java.io.IOException: closed
 * 	...
 * </pre>
 */
public final class Panics {
    private Panics() {
    }

    /** The report: {@code panic: } and the exception, the goroutine header, its stack, its causes. */
    public static String report(long goroutineId, Throwable panic) {
        StringBuilder sb = new StringBuilder("panic: ").append(panic).append("\n\ngoroutine ").append(goroutineId)
                .append(" [running]:\n");
        frames(sb, panic);
        Set<Throwable> seen = Collections.newSetFromMap(new IdentityHashMap<>());
        seen.add(panic);
        for (Throwable c = panic.getCause(); c != null && seen.add(c); c = c.getCause()) {
            sb.append("caused by: ").append(c).append('\n');
            frames(sb, c);
        }
        return sb.toString();
    }

    /** Prints {@link #report} to stderr and flushes it. */
    public static void print(long goroutineId, Throwable panic) {
        System.err.print(report(goroutineId, panic));
        System.err.flush();
    }

    private static void frames(StringBuilder sb, Throwable t) {
        for (StackTraceElement el : t.getStackTrace()) {
            sb.append('\t').append(el).append('\n');
        }
    }
}
