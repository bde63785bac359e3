package io.gmp4j.chan;

import java.time.Duration;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * One case of the statement form {@link Select#select(SelectCase...)}: made by
 * {@link Select#onRecv}, {@link Select#onRecvOk}, {@link Select#onSend} and
 * {@link Select#onTimeout}.
 */
public final class SelectCase {
    enum Kind { RECV, RECV_OK, SEND, TIMEOUT }

    final Kind kind;
    final Chan<?> chan;
    final Object value;
    final Duration timeout;
    final Object body;

    SelectCase(Kind kind, Chan<?> chan, Object value, Duration timeout, Object body) {
        if (body == null) {
            throw new NullPointerException("select case: null body");
        }
        this.kind = kind;
        this.chan = chan;
        this.value = value;
        this.timeout = timeout;
        this.body = body;
    }

    /** Adds this case to {@code s}; returns its index there. */
    @SuppressWarnings("unchecked")
    int addTo(Select s) {
        return switch (kind) {
            case RECV, RECV_OK -> s.recv(chan);
            case SEND -> s.send((Chan<Object>) chan, value);
            case TIMEOUT -> s.timeout(timeout);
        };
    }

    /** Runs the body of this case, which fired in {@code s}. */
    @SuppressWarnings("unchecked")
    void run(Select s) {
        switch (kind) {
            case RECV -> ((Consumer<Object>) body).accept(s.value());
            case RECV_OK -> ((BiConsumer<Object, Boolean>) body).accept(s.value(), s.ok());
            case SEND, TIMEOUT -> ((Runnable) body).run();
        }
    }
}
