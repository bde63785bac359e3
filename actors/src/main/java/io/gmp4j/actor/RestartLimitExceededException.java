package io.gmp4j.actor;

import java.time.Duration;

/**
 * The reason a supervisor stops when its children need more restarts than its intensity
 * allows ({@link SupervisorSpec.Builder#intensity}): it stops its children and dies of this,
 * which its own supervisor, its watchers and the actors linked to it see. The cause is the
 * failure of the child that would have been restarted once too often (null if that child
 * stopped normally).
 *
 * <pre>{@code
 * Terminated t = system.whenTerminated(sup.ref()).get();
 * if (t.reason() instanceof RestartLimitExceededException e) {
 *     System.err.println(e.getMessage() + ", last: " + e.getCause());
 * }
 * }</pre>
 */
public final class RestartLimitExceededException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /**
     * Creates the exception.
     *
     * @param supervisor  the supervisor's name
     * @param maxRestarts the most restarts allowed within {@code period}
     * @param period      the intensity's period
     * @param childId     the child whose restart was one too many
     * @param cause       that child's failure, or null for a normal stop
     */
    public RestartLimitExceededException(String supervisor, int maxRestarts, Duration period, String childId,
            Throwable cause) {
        super("supervisor " + supervisor + ": more than " + maxRestarts + " restarts within " + period
                + " (child '" + childId + "'); giving up", cause);
    }
}
