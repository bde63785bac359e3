package io.gmp4j.sync;

import io.gmp4j.Go;
import io.gmp4j.chan.Chan;
import io.gmp4j.context.Cancelable;
import io.gmp4j.context.Context;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Goroutines working on subtasks of a common task: {@code golang.org/x/sync/errgroup.Group}.
 * {@code errgroup.WithContext(ctx)}, {@code g.Go(f)}, {@code g.TryGo(f)}, {@code g.Wait()}
 * and {@code g.SetLimit(n)} are {@link #withContext}, {@link #go}, {@link #tryGo},
 * {@link #await} and {@link #setLimit}.
 *
 * <pre>{@code
 * ErrGroup g = ErrGroup.withContext(ctx);
 * for (String url : urls) {
 *     g.go(() -> fetch(g.context(), url));   // a Task may throw
 * }
 * Throwable err = g.await();                 // if err := g.Wait(); err != nil
 * }</pre>
 *
 * <p>A task's error is whatever it throws. The first one is kept and, for a group made by
 * {@link #withContext}, cancels the group's context so the other tasks can stop early;
 * {@link #await} returns it (Go returns it rather than panicking; so does this, so that the
 * caller decides whether to throw). Tasks run as goroutines of the caller's runtime (else the
 * default runtime).
 */
public final class ErrGroup {
    private static final Boolean TOKEN = Boolean.TRUE;

    private final WaitGroup wg = new WaitGroup();
    private final AtomicReference<Throwable> err = new AtomicReference<>();
    /** Null for a group without a context. */
    private final Cancelable cancel;
    /** Go's {@code sem chan token}: null means no limit. */
    private volatile Chan<Boolean> sem;

    /** Go's zero {@code errgroup.Group}: no context, no limit. */
    public ErrGroup() {
        this.cancel = null;
    }

    private ErrGroup(Cancelable cancel) {
        this.cancel = cancel;
    }

    /**
     * Go's {@code errgroup.WithContext(ctx)}: a group whose {@link #context()} is derived from
     * {@code ctx} and canceled by the first task that fails, or when {@link #await} returns.
     */
    public static ErrGroup withContext(Context ctx) {
        return new ErrGroup(Context.withCancel(ctx));
    }

    /** The derived context of {@link #withContext} ({@link Context#background()} for a plain group). */
    public Context context() {
        return cancel == null ? Context.background() : cancel.ctx();
    }

    /** A subtask: Go's {@code func() error}, where an error is anything thrown. */
    @FunctionalInterface
    public interface Task {
        /**
         * Runs the subtask.
         *
         * @throws Exception the task's error (Go's non-nil return)
         */
        void run() throws Exception;
    }

    /**
     * Go's {@code g.Go(f)}: runs {@code f} in a new goroutine. With a limit set, waits
     * (as {@code [chan send]}) until a running task finishes and frees a slot.
     */
    public void go(Task f) {
        Chan<Boolean> s = sem;
        if (s != null) {
            s.send(TOKEN);
        }
        start(f, s);
    }

    /**
     * Go's {@code g.TryGo(f)}: like {@link #go}, but only if that needs no wait for a slot.
     *
     * @return true if {@code f} was started
     */
    public boolean tryGo(Task f) {
        Chan<Boolean> s = sem;
        if (s != null && !s.trySend(TOKEN)) {
            return false;
        }
        start(f, s);
        return true;
    }

    private void start(Task f, Chan<Boolean> s) {
        wg.add(1);
        try {
            Go.go(() -> {
                try {
                    f.run();
                } catch (Throwable t) {
                    if (err.compareAndSet(null, t) && cancel != null) {
                        cancel.cancel();
                    }
                } finally {
                    done(s);
                }
            });
        } catch (RuntimeException e) {
            done(s); // the goroutine never started
            throw e;
        }
    }

    private void done(Chan<Boolean> s) {
        if (s != null) {
            s.recv();
        }
        wg.done();
    }

    /**
     * Go's {@code g.Wait()}: waits for every task, cancels the group's context, and returns the
     * first error.
     *
     * @return the first throwable any task threw, or null if all succeeded
     */
    public Throwable await() {
        wg.await();
        if (cancel != null) {
            cancel.cancel();
        }
        return err.get();
    }

    /**
     * Go's {@code g.SetLimit(n)}: at most {@code n} tasks active at once; negative for no limit.
     * With a limit of 0, {@link #go} blocks forever, as in Go.
     *
     * @throws IllegalStateException if tasks started under a previous limit are still active
     *     (Go panics: "errgroup: modify limit while N goroutines in the group are still active")
     */
    public void setLimit(int n) {
        if (n < 0) {
            sem = null;
            return;
        }
        Chan<Boolean> s = sem;
        if (s != null && s.len() != 0) {
            throw new IllegalStateException("errgroup: modify limit while " + s.len()
                    + " goroutines in the group are still active");
        }
        sem = new Chan<>(n);
    }
}
