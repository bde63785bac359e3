package io.gmp4j.context;

import io.gmp4j.chan.Chan;
import io.gmp4j.chan.RecvChan;
import java.time.Instant;
import java.util.Optional;

/** Go's {@code emptyCtx}: {@link Context#background()} and {@link Context#todo()}. */
final class EmptyCtx implements Context {
    static final EmptyCtx BACKGROUND = new EmptyCtx("context.Background");
    static final EmptyCtx TODO = new EmptyCtx("context.TODO");
    /** Never closed, never sent on: a receive blocks forever, a select case never fires. */
    private static final Chan<Void> NEVER = new Chan<>();

    private final String name;

    private EmptyCtx(String name) {
        this.name = name;
    }

    @Override
    public RecvChan<Void> done() {
        return NEVER;
    }

    @Override
    public ContextException err() {
        return null;
    }

    @Override
    public Optional<Instant> deadline() {
        return Optional.empty();
    }

    @Override
    public Object value(Object key) {
        return null;
    }

    @Override
    public String toString() {
        return name;
    }
}
