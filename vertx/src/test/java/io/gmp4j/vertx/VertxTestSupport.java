package io.gmp4j.vertx;

import io.gmp4j.TestSupport;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertTrue;

/** What the module's tests share: a real Vert.x instance, and waits with the safety-net timeout. */
final class VertxTestSupport {
    private VertxTestSupport() {
    }

    /** Waits on a test thread for a Vert.x future, with the safety-net timeout (not via Await: tests check Await). */
    static <T> T join(Future<T> f) {
        try {
            return f.toCompletionStage().toCompletableFuture().get(TestSupport.TIMEOUT_S, TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError("Vert.x future: " + e, e);
        }
    }

    /** Closes {@code vertx} and waits. */
    static void close(Vertx vertx) {
        if (vertx != null) {
            join(vertx.close());
        }
    }

    /** True when {@code t} is parked in a frame of {@code cls}'s {@code method}. */
    static boolean parkedIn(Thread t, Class<?> cls, String method) {
        if (t == null || t.getState() != Thread.State.WAITING) {
            return false;
        }
        for (StackTraceElement e : t.getStackTrace()) {
            if (e.getClassName().equals(cls.getName()) && e.getMethodName().equals(method)) {
                return true;
            }
        }
        return false;
    }

    static void check(boolean ok, String why) {
        assertTrue(ok, why);
    }
}
