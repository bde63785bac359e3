package io.gmp4j.actor;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * What a supervisor does, after Erlang/OTP: its children in start order, its
 * {@link SupervisionStrategy}, and its restart intensity (at most {@code maxRestarts} restarts
 * within {@code period}; one more and the supervisor stops its children and dies of a
 * {@link RestartLimitExceededException}, which escalates to its own supervisor, its watchers
 * and its links). Defaults as OTP's: one-for-one, 1 restart in 5 seconds.
 *
 * <pre>{@code
 * SupervisorSpec spec = SupervisorSpec.builder()
 *         .strategy(SupervisionStrategy.ONE_FOR_ALL)
 *         .intensity(3, Duration.ofSeconds(10))
 *         .child(ChildSpec.behavior("db", db))
 *         .child(ChildSpec.process("poller", poller).withRestart(Restart.TRANSIENT))
 *         .build();
 * Supervisor sup = system.spawnSupervisor(spec);
 * }</pre>
 *
 * <p>Spawn one with {@link ActorSystem#spawnSupervisor}, {@link ActorContext#spawnSupervisor}, or
 * nest one as a child with {@link ChildSpec#supervisor}. Immutable; one spec may start many
 * supervisors.
 */
public final class SupervisorSpec {
    /** OTP's default intensity: at most 1 restart ... */
    public static final int DEFAULT_MAX_RESTARTS = 1;
    /** ... within 5 seconds. */
    public static final Duration DEFAULT_PERIOD = Duration.ofSeconds(5);

    private final SupervisionStrategy strategy;
    private final int maxRestarts;
    private final Duration period;
    private final List<ChildSpec<?>> children;

    private SupervisorSpec(Builder b) {
        this.strategy = b.strategy;
        this.maxRestarts = b.maxRestarts;
        this.period = b.period;
        this.children = List.copyOf(b.children);
    }

    /**
     * A builder with the defaults.
     *
     * <pre>{@code
     * SupervisorSpec spec = SupervisorSpec.builder().child(ChildSpec.behavior("w", w)).build();
     * }</pre>
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The strategy.
     *
     * <pre>{@code
     * SupervisionStrategy s = spec.strategy();
     * }</pre>
     */
    public SupervisionStrategy strategy() {
        return strategy;
    }

    /**
     * The most restarts allowed within {@link #period()}.
     *
     * <pre>{@code
     * int n = spec.maxRestarts();
     * }</pre>
     */
    public int maxRestarts() {
        return maxRestarts;
    }

    /**
     * The intensity's period.
     *
     * <pre>{@code
     * Duration t = spec.period();
     * }</pre>
     */
    public Duration period() {
        return period;
    }

    /**
     * The children, in start order.
     *
     * <pre>{@code
     * for (ChildSpec<?> c : spec.children()) System.out.println(c.id());
     * }</pre>
     */
    public List<ChildSpec<?>> children() {
        return children;
    }

    @Override
    public String toString() {
        return "SupervisorSpec[" + strategy + ", " + maxRestarts + " in " + period + ", " + children + "]";
    }

    /**
     * Builds a {@link SupervisorSpec}.
     *
     * <pre>{@code
     * SupervisorSpec.builder().strategy(SupervisionStrategy.ONE_FOR_ONE).intensity(5, Duration.ofSeconds(1));
     * }</pre>
     */
    public static final class Builder {
        private SupervisionStrategy strategy = SupervisionStrategy.ONE_FOR_ONE;
        private int maxRestarts = DEFAULT_MAX_RESTARTS;
        private Duration period = DEFAULT_PERIOD;
        private final List<ChildSpec<?>> children = new ArrayList<>();

        private Builder() {
        }

        /**
         * The strategy (default one-for-one).
         *
         * <pre>{@code
         * builder.strategy(SupervisionStrategy.REST_FOR_ONE);
         * }</pre>
         */
        public Builder strategy(SupervisionStrategy strategy) {
            this.strategy = Objects.requireNonNull(strategy, "strategy");
            return this;
        }

        /**
         * At most {@code maxRestarts} (>= 0) restarts within {@code period} (positive); the one
         * after makes the supervisor give up. 0 means a child that has to be restarted makes
         * the supervisor give up at once.
         *
         * <pre>{@code
         * builder.intensity(3, Duration.ofSeconds(10));
         * }</pre>
         *
         * @throws IllegalArgumentException if {@code maxRestarts} is negative or the period is
         *                                  not positive
         */
        public Builder intensity(int maxRestarts, Duration period) {
            if (maxRestarts < 0) {
                throw new IllegalArgumentException("intensity: maxRestarts must be >= 0, got " + maxRestarts);
            }
            if (period == null || period.isNegative() || period.isZero()) {
                throw new IllegalArgumentException("intensity: period must be positive, got " + period);
            }
            this.maxRestarts = maxRestarts;
            this.period = period;
            return this;
        }

        /**
         * Adds a child, started after those added before it.
         *
         * <pre>{@code
         * builder.child(ChildSpec.behavior("worker", worker));
         * }</pre>
         *
         * @throws IllegalArgumentException if a child with the same id was added already
         */
        public Builder child(ChildSpec<?> child) {
            Objects.requireNonNull(child, "child");
            for (ChildSpec<?> c : children) {
                if (c.id().equals(child.id())) {
                    throw new IllegalArgumentException("supervisor spec: duplicate child id '" + child.id() + "'");
                }
            }
            children.add(child);
            return this;
        }

        /**
         * The spec.
         *
         * <pre>{@code
         * SupervisorSpec spec = builder.build();
         * }</pre>
         */
        public SupervisorSpec build() {
            return new SupervisorSpec(this);
        }
    }
}
