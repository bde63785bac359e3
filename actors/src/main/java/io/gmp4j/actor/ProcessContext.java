package io.gmp4j.actor;

import java.time.Duration;
import java.util.function.Predicate;

/**
 * A process actor's context: an {@link ActorContext} plus Erlang's {@code receive}. A process
 * actor is a goroutine, so it may block anywhere (channels, {@code select}, sleeps, {@link
 * Reply#get()}); a stop request takes effect at its next {@code receive}, which then throws an
 * internal signal that ends the body (do not catch {@code Throwable} around {@code receive}).
 *
 * <pre>{@code
 * ActorRef<Object> p = system.spawnProcess(self -> {
 *     Object first = self.receive();                                   // blocks
 *     Object urgent = self.receive(m -> m instanceof Urgent);          // selective
 *     Object maybe = self.receive(Duration.ofMillis(100));              // null on timeout
 * });
 * }</pre>
 *
 * @param <T> the message type
 */
public interface ProcessContext<T> extends ActorContext<T> {
    /**
     * Takes the oldest message, waiting as long as it takes.
     *
     * <pre>{@code
     * String s = self.receive();
     * }</pre>
     */
    T receive();

    /**
     * Takes the oldest message, waiting at most {@code timeout}.
     *
     * <pre>{@code
     * String s = self.receive(Duration.ofSeconds(1));
     * if (s == null) { ... } // timed out
     * }</pre>
     *
     * @return the message, or null on timeout
     */
    T receive(Duration timeout);

    /**
     * Selective receive: takes the oldest message that matches {@code filter}, waiting as long
     * as it takes. Messages that do not match stay, in order, for later receives.
     *
     * <pre>{@code
     * Object reply = self.receive(m -> m instanceof Reply);
     * }</pre>
     */
    T receive(Predicate<? super T> filter);

    /**
     * Selective receive with a timeout.
     *
     * <pre>{@code
     * Object reply = self.receive(m -> m instanceof Reply, Duration.ofSeconds(1));
     * }</pre>
     *
     * @return the matching message, or null on timeout
     */
    T receive(Predicate<? super T> filter, Duration timeout);
}
