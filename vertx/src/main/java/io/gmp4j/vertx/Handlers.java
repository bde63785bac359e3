package io.gmp4j.vertx;

import io.gmp4j.GoRuntime;
import io.vertx.core.Context;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import java.util.Objects;

/**
 * What the goroutine handlers share: the context check, and the report of a handler that threw
 * (Go's net/http recovers a handler's panic, logs it and closes the connection: so do these,
 * through Vert.x's own {@link Vertx#exceptionHandler()} when one is set).
 */
final class Handlers {
    private Handlers() {
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

    static <T> T nonNull(T v, String name) {
        return Objects.requireNonNull(v, name);
    }
}
