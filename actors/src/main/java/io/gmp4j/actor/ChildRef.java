package io.gmp4j.actor;

import java.time.Duration;
import java.util.function.Function;

/**
 * The stable reference to a supervised child: it forwards to the child's current incarnation,
 * which the supervisor replaces on each restart, so whoever holds it keeps talking to the child
 * across restarts. Between an incarnation's death and its successor's start (a few scheduler
 * steps; longer while a one-for-all restart stops the siblings), messages reach the dead
 * incarnation and become dead letters, as they would in OTP. Watching or linking it watches or
 * links the incarnation current at that moment, as Erlang does for a registered name.
 *
 * <p>Only the supervisor's goroutine writes {@link #current}; anyone reads it.
 */
final class ChildRef<T> implements ActorRef<T> {
    private final String id;
    private volatile ActorCell<T> current;

    ChildRef(String id) {
        this.id = id;
    }

    ActorCell<T> current() {
        return current;
    }

    void setCurrent(ActorCell<T> cell) {
        current = cell;
    }

    @Override
    public void tell(T msg) {
        current.tell(msg);
    }

    @Override
    public <R> Reply<R> ask(Function<ActorRef<R>, T> msgFactory, Duration timeout) {
        return current.ask(msgFactory, timeout);
    }

    /**
     * Stops the current incarnation; the supervisor then applies the restart type (a
     * permanent child comes back). To end a child for good, make it transient and stop it.
     */
    @Override
    public void stop() {
        current.stop();
    }

    @Override
    public String name() {
        return current.name();
    }

    @Override
    public boolean isAlive() {
        return current.isAlive();
    }

    @Override
    public String toString() {
        return "ChildRef[" + id + " -> " + current + "]";
    }
}
