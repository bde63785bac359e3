package io.gmp4j.actor;

/**
 * Which children a supervisor restarts when one of them has to be restarted (OTP's
 * strategies). Children are ordered by their place in the {@link SupervisorSpec}: their start
 * order.
 *
 * <pre>{@code
 * SupervisorSpec spec = SupervisorSpec.builder()
 *         .strategy(SupervisionStrategy.REST_FOR_ONE)
 *         .child(ChildSpec.behavior("db", db))
 *         .child(ChildSpec.behavior("cache", cache))   // depends on db: restarted with it
 *         .build();
 * }</pre>
 */
public enum SupervisionStrategy {
    /** Only the child that stopped is restarted. */
    ONE_FOR_ONE,
    /**
     * Every child is restarted: the others are stopped one by one in reverse start order
     * (each waited for), then all are started again in start order.
     */
    ONE_FOR_ALL,
    /**
     * The child that stopped and the ones started after it are restarted: those after it are
     * stopped in reverse start order, then it and they are started again in start order.
     */
    REST_FOR_ONE
}
