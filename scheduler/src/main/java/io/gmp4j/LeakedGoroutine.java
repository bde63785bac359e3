package io.gmp4j;

import java.time.Duration;
import java.util.List;

/**
 * One goroutine of a {@linkplain GoRuntime#leakedGoroutines() leak report}: blocked for ever,
 * because nothing that could wake it (no running goroutine, no thread, no static field) can
 * reach what it waits on any more. Go 1.26's goroutine leak profile.
 *
 * @param id         the goroutine id
 * @param waitReason Go's wait reason of the wait it leaked in ({@code "chan receive"},
 *                   {@code "chan send"}, {@code "select"}, {@code "sync.Mutex.Lock"}, ...), or
 *                   null when it leaked outside a gmp4j wait (a bare {@code LockSupport.park})
 * @param waited     how long it had been waiting when the report ran (to the runtime's coarse
 *                   clock, 10 ms); zero when the reason is null
 * @param createdBy  the class of the function the goroutine was started with (for a lambda, the
 *                   class that wrote it), or null when unknown
 * @param stack      its stack as it waited, when the report saw it parked before the collection
 *                   that found it; empty for a goroutine an earlier collection had freed
 */
public record LeakedGoroutine(long id, String waitReason, Duration waited, String createdBy,
                              List<StackTraceElement> stack) {
    /** Checks the components; the stack is copied. */
    public LeakedGoroutine {
        if (waited == null || stack == null) {
            throw new NullPointerException("LeakedGoroutine: null waited or stack");
        }
        stack = List.copyOf(stack);
    }

    /**
     * Go's dump of the goroutine, marked leaked:
     * {@code goroutine 17 [chan receive, leaked]:}, its stack, and {@code created by} its
     * function's class.
     */
    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("goroutine ").append(id).append(" [")
                .append(waitReason == null ? "park" : waitReason);
        long minutes = waited.toMinutes();
        if (minutes >= 1) {
            sb.append(", ").append(minutes).append(minutes == 1 ? " minute" : " minutes");
        }
        sb.append(", leaked]:\n");
        for (StackTraceElement e : stack) {
            sb.append('\t').append(e).append('\n');
        }
        if (createdBy != null) {
            sb.append("created by ").append(createdBy).append('\n');
        }
        return sb.toString();
    }
}
