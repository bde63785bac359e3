package io.gmp4j.context;

/**
 * A derived context and the function that cancels it: the two results of Go's
 * {@code ctx, cancel := context.WithCancel(parent)} (and of {@code WithTimeout} and
 * {@code WithDeadline}). Pass {@link #ctx()} on; keep the cancel to yourself, as in Go.
 *
 * <pre>{@code
 * try (Cancelable c = Context.withTimeout(parent, Duration.ofSeconds(1))) {   // defer cancel()
 *     work(c.ctx());
 * }
 * }</pre>
 *
 * <p>Cancel as soon as the work is done: that detaches the context from its parent and stops
 * its timer. {@link #close()} cancels, so try-with-resources is Go's {@code defer cancel()}.
 */
public final class Cancelable implements AutoCloseable {
    private final Context ctx;
    private final Runnable cancel;

    Cancelable(Context ctx, Runnable cancel) {
        this.ctx = ctx;
        this.cancel = cancel;
    }

    /** Go's {@code ctx}: the derived context. */
    public Context ctx() {
        return ctx;
    }

    /**
     * Go's {@code cancel()}: cancels the context with {@link Context#CANCELED} (if not already
     * done), its children with it, and detaches it from its parent. Idempotent; any thread.
     */
    public void cancel() {
        cancel.run();
    }

    /** Go's {@code cancel} as a value, to hand to code that only needs to cancel. */
    public Runnable cancelFunc() {
        return cancel;
    }

    /** Cancels: try-with-resources is Go's {@code defer cancel()}. */
    @Override
    public void close() {
        cancel.run();
    }

    @Override
    public String toString() {
        return "Cancelable[" + ctx + "]";
    }
}
