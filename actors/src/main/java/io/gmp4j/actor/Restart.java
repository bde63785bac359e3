package io.gmp4j.actor;

/**
 * When a supervisor restarts a child that stopped (OTP's restart types). A child "fails" when
 * it stops abnormally: its handler or body threw, or a linked actor's failure killed it; a
 * stop request, {@link Behavior#stopped()} or a process body that returns is a normal stop.
 *
 * <pre>{@code
 * ChildSpec<Job> worker = ChildSpec.behavior("worker", jobHandler).withRestart(Restart.TRANSIENT);
 * }</pre>
 */
public enum Restart {
    /** Always restarted, after a failure or a normal stop (the default). */
    PERMANENT,
    /** Restarted only after a failure; a normal stop ends it for good. */
    TRANSIENT,
    /**
     * Never restarted, and removed from the supervisor when it stops (or when a one-for-all or
     * rest-for-one restart stops it).
     */
    TEMPORARY
}
