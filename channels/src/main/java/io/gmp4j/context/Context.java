package io.gmp4j.context;

import io.gmp4j.runtime.spi.Clock;
import io.gmp4j.chan.RecvChan;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * Go's {@code context.Context}: a deadline, a cancellation signal and request-scoped values,
 * carried across API boundaries and goroutines.
 *
 * <pre>{@code
 * try (Cancelable c = Context.withTimeout(Context.background(), Duration.ofSeconds(2))) {
 *     Select s = new Select();
 *     int got = s.recv(results), done = s.recv(c.ctx().done());
 *     if (s.select() == done) {
 *         throw c.ctx().err();                       // return ctx.Err()
 *     }
 * }
 * }</pre>
 *
 * <p>Contexts form a tree: a derived context is done when its parent is; canceling it (or its
 * deadline passing) detaches it from its parent. Deadlines use the runtime's per-P timers (of
 * the calling goroutine's runtime; from another thread, of the default runtime), so a
 * goroutine waiting for a deadline is not reported as deadlocked. In a synctest bubble
 * ({@code io.gmp4j.test.SyncTest}) deadlines and timeouts are on the bubble's clock. All methods
 * are thread-safe.
 *
 * <p>Sealed: contexts are made only by the factories here (Go lets any type implement the
 * interface; here a custom context would be invisible to the cancellation tree).
 */
public sealed interface Context permits EmptyCtx, CancelCtx, ValueCtx {
    /** Go's {@code context.Canceled}: "context canceled". */
    ContextException CANCELED = new ContextException("context canceled", false);

    /** Go's {@code context.DeadlineExceeded}: "context deadline exceeded". */
    ContextException DEADLINE_EXCEEDED = new ContextException("context deadline exceeded", true);

    /**
     * Go's {@code ctx.Done()}: a channel closed when this context is canceled or its deadline
     * passes; use it as a receive case of a {@link io.gmp4j.chan.Select}, or {@code recv()} it.
     * Nothing is ever sent on it. For a context that can never be canceled
     * ({@link #background()}, {@link #todo()} and values derived only from them), the same
     * shared channel, never closed (Go returns nil, which also blocks forever).
     */
    RecvChan<Void> done();

    /**
     * Go's {@code ctx.Err()}: null while not done, then {@link #CANCELED} or
     * {@link #DEADLINE_EXCEEDED} for good. Non-null once {@link #done()} is closed.
     */
    ContextException err();

    /** Go's {@code ctx.Deadline()}: when this context will be canceled by a deadline, if ever. */
    Optional<Instant> deadline();

    /**
     * Go's {@code ctx.Value(key)}: the value bound to {@code key} by the nearest
     * {@link #withValue} up the chain, or null. Keys compare with {@code equals}; use a
     * private key object, as Go advises an unexported key type.
     */
    Object value(Object key);

    /** Go's {@code context.Background()}: never canceled, no values, no deadline. */
    static Context background() {
        return EmptyCtx.BACKGROUND;
    }

    /** Go's {@code context.TODO()}: like {@link #background()}, for code not yet given a context. */
    static Context todo() {
        return EmptyCtx.TODO;
    }

    /**
     * Go's {@code context.WithCancel(parent)}: a child done when its cancel is called or when
     * {@code parent} is done, whichever happens first.
     */
    static Cancelable withCancel(Context parent) {
        Objects.requireNonNull(parent, "cannot create context from nil parent");
        CancelCtx c = new CancelCtx(parent, CancelCtx.NO_DEADLINE, null);
        c.attach();
        return c.cancelable();
    }

    /**
     * Go's {@code context.WithDeadline(parent, d)}: also done (with
     * {@link #DEADLINE_EXCEEDED}) when {@code deadline} passes. A parent deadline that is
     * earlier wins, as in Go.
     */
    static Cancelable withDeadline(Context parent, Instant deadline) {
        long nanos = Clock.nanoTime() + Deadlines.nanosUntil(deadline);
        return CancelCtx.withDeadline(parent, nanos, deadline);
    }

    /**
     * {@link #withDeadline} with the deadline as a {@link System#nanoTime()} value (the clock
     * the runtime's timers use; in a synctest bubble, the bubble's clock in the same terms).
     */
    static Cancelable withDeadlineNanos(Context parent, long nanoTime) {
        Instant at = Clock.now().plusNanos(nanoTime - Clock.nanoTime());
        return CancelCtx.withDeadline(parent, nanoTime, at);
    }

    /** Go's {@code context.WithTimeout(parent, d)}: {@code withDeadline(parent, now + timeout)}. */
    static Cancelable withTimeout(Context parent, Duration timeout) {
        long now = Clock.nanoTime();
        return CancelCtx.withDeadline(parent, Deadlines.plus(now, timeout), Clock.now().plus(timeout));
    }

    /**
     * Go's {@code context.WithValue(parent, key, val)}: a child that carries {@code key ->
     * value} and is otherwise its parent.
     *
     * @throws NullPointerException if parent or key is null (Go: "nil key")
     */
    static Context withValue(Context parent, Object key, Object value) {
        Objects.requireNonNull(parent, "cannot create context from nil parent");
        Objects.requireNonNull(key, "nil key");
        return new ValueCtx(parent, key, value);
    }

    /**
     * Runs {@code callback} once when {@code ctx} is done (at once if it already is), on the
     * thread that cancels it, which may be an M running a timer: the callback must not block
     * (ready a waiter, close a channel). This is Go's {@code context.AfterFunc} for runtime
     * primitives; Go runs {@code f} in a new goroutine instead, so start one from the callback
     * ({@code Go.go}) for work that may block. Never runs for a context that cannot be canceled.
     *
     * @return a function that detaches the callback
     */
    static StopFunc onDone(Context ctx, Runnable callback) {
        Objects.requireNonNull(callback, "callback");
        CancelCtx owner = CancelCtx.nearest(ctx);
        if (owner == null) {
            return () -> false;
        }
        DoneCallback cb = new DoneCallback(owner, callback);
        if (!owner.addChild(cb)) {
            cb.cancel(false, owner.err());
        }
        return cb;
    }
}
