package io.gmp4j.vertx;

import io.gmp4j.GoRuntime;
import io.vertx.core.Context;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * What the goroutine handlers share: a goroutine per stream, the context check, and the report of a handler that threw
 * (Go's net/http recovers a handler's panic, logs it and closes the connection: so do these,
 * through Vert.x's own {@link Vertx#exceptionHandler()} when one is set).
 */
final class Handlers {
    private Handlers() {
    }

    /**
     * Builds the blocking-style view of a stream Vert.x hands to a handler ({@link GoRequest},
     * {@link GoWebSocket}), on the stream's context, taking over the stream's handlers.
     *
     * @param <S> the Vert.x stream
     * @param <V> its view
     */
    @FunctionalInterface
    interface View<S, V> {
        /** The view of {@code stream}, on {@code context} (the caller's), with an inbox of {@code inbox}. */
        V open(S stream, Context context, int inbox);
    }

    /**
     * The handler behind {@code GoRequest.handler} and {@code GoWebSocket.handler}: per stream,
     * {@code view} opens the stream's view on the event loop (before the handler returns, so
     * nothing arrives unhandled), and a new goroutine of {@code rt} ({@link #runtime}) runs
     * {@code run} with the view and {@code body}. Checks {@code inbox} and {@code body} here,
     * when the handler is made.
     */
    static <S, V> Handler<S> goroutinePerStream(GoRuntime rt, int inbox, Consumer<V> body, View<S, V> view,
                                                BiConsumer<V, Consumer<V>> run) {
        GoRuntime runtime = runtime(rt);
        checkInbox(inbox);
        Objects.requireNonNull(body, "body");
        return stream -> {
            V v = view.open(stream, Vertx.currentContext(), inbox);
            runtime.go(() -> run.accept(v, body));
        };
    }

    /** The runtime handlers made by the caller start their goroutines in. */
    static GoRuntime runtime(GoRuntime rt) {
        return rt != null ? rt : GoRuntime.current();
    }

    /** The caller's Vert.x context; refuses a caller that is on none. */
    static Context requireContext(String what) {
        Context ctx = Vertx.currentContext();
        if (ctx == null) {
            throw new IllegalStateException(what + " must be called on the stream's Vert.x context "
                    + "(in its handler, or in the callback that got it), before the handler returns");
        }
        return ctx;
    }

    /** Reports the exception a goroutine handler ended with. */
    static void report(Context ctx, String what, Throwable t) {
        Handler<Throwable> h = ctx != null ? ctx.owner().exceptionHandler() : null;
        if (h != null) {
            try {
                h.handle(t);
                return;
            } catch (Throwable again) {
                t.addSuppressed(again);
            }
        }
        System.err.println("gmp4j-vertx: " + what + " failed: " + t);
        t.printStackTrace();
    }

    static int checkInbox(int inbox) {
        if (inbox < 1) {
            throw new IllegalArgumentException("inbox must be at least 1 message: " + inbox);
        }
        return inbox;
    }
}
