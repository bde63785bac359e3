package io.gmp4j.actor;

import io.gmp4j.chan.Chan;
import io.gmp4j.chan.RecvChan;
import io.gmp4j.chan.Select;
import io.gmp4j.runtime.RuntimeTimer;
import io.gmp4j.runtime.Scheduler;
import io.gmp4j.runtime.ShortLock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;
import java.util.function.Function;

/**
 * The pending answer of an {@link ActorRef#ask}: completed once, with the answer or with a
 * failure ({@link AskTimeoutException}, {@link ActorStoppedException}).
 *
 * <pre>{@code
 * record Get(ActorRef<Integer> replyTo) {}
 * Reply<Integer> r = counter.ask(Get::new, Duration.ofSeconds(1));
 *
 * int n = r.get();                          // a goroutine (or any thread) blocks
 *
 * Select s = new Select();                  // or wait in a select, with other channels
 * int answer = s.recv(r.channel()), quit = s.recv(done);
 * if (s.select() == answer && s.ok()) { int m = s.value(); }
 *
 * r.pipeTo(ctx.self(), Count::new, Failed::new);   // a behaviour actor never blocks
 * }</pre>
 *
 * @param <R> the answer's type
 */
public final class Reply<R> {
    private final ShortLock lock = new ShortLock();
    private final String what;
    /** Published by the volatile write of done; guarded by lock before. */
    private R value;
    private Throwable failure;
    private volatile boolean done;
    // Guarded by lock.
    private Chan<R> valueChan;
    private Chan<Object> doneChan;
    private Object callbacks; // null, one BiConsumer, or an ArrayList of them
    /** Set before the reply is published to anyone who could complete it. */
    volatile RuntimeTimer timer;
    ActorCell<?> target;

    Reply(String what) {
        this.what = what;
    }

    /**
     * Completes with {@code v} or {@code f}.
     *
     * @return false if it was already complete
     */
    boolean complete(R v, Throwable f) {
        Chan<R> vc;
        Chan<Object> dc;
        Object cbs;
        lock.lock();
        try {
            if (done) {
                return false;
            }
            value = v;
            failure = f;
            done = true;
            vc = valueChan;
            dc = doneChan;
            cbs = callbacks;
            callbacks = null;
        } finally {
            lock.unlock();
        }
        RuntimeTimer t = timer;
        if (t != null) {
            t.stop();
        }
        ActorCell<?> c = target;
        if (c != null) {
            c.removeWatcher(this);
        }
        if (dc != null) {
            dc.close();
        }
        if (vc != null) {
            fill(vc);
        }
        if (cbs instanceof ArrayList<?> list) {
            for (Object o : list) {
                run(o);
            }
        } else if (cbs != null) {
            run(cbs);
        }
        return true;
    }

    @SuppressWarnings("unchecked")
    private void run(Object cb) {
        try {
            ((BiConsumer<? super R, ? super Throwable>) cb).accept(value, failure);
        } catch (RuntimeException e) {
            // A callback's failure is its own; the other callbacks still run.
        }
    }

    private void fill(Chan<R> vc) {
        if (failure == null) {
            vc.trySend(value); // capacity 1 and the only send: never full
        }
        vc.close();
    }

    /**
     * True once answered or failed.
     *
     * <pre>{@code
     * if (r.isDone()) { ... }
     * }</pre>
     */
    public boolean isDone() {
        return done;
    }

    /**
     * Waits for the answer and returns it. Blocks a goroutine (parking it, freeing its P) or
     * any other thread; never call it in a behaviour actor (use {@link #pipeTo}).
     *
     * <pre>{@code
     * String answer = server.<String>ask(Request::new, Duration.ofSeconds(2)).get();
     * }</pre>
     *
     * @throws AskTimeoutException    if no answer came in time
     * @throws ActorStoppedException  if the actor stopped first
     * @throws MailboxFullException   if the request met a full bounded mailbox that refuses
     * @throws IllegalStateException  when called from a behaviour actor (it would block an M)
     */
    public R get() {
        if (!done) {
            Chan<Object> dc = doneChan();
            if (dc != null) {
                dc.recv(); // returns once closed by complete
            }
        }
        return outcome();
    }

    /**
     * Like {@link #get()}, waiting at most {@code wait} (whatever the ask's own timeout): for
     * callers that bound every wait, and for replies without a timeout such as
     * {@link ActorSystem#whenTerminated}.
     *
     * <pre>{@code
     * Terminated t = system.whenTerminated(worker).get(Duration.ofSeconds(5));
     * }</pre>
     *
     * @throws AskTimeoutException    if still pending after {@code wait} (the reply stays pending)
     * @throws ActorStoppedException  if the actor stopped first
     * @throws IllegalStateException  when called from a behaviour actor
     */
    public R get(Duration wait) {
        if (!done) {
            Chan<Object> dc = doneChan();
            if (dc != null) {
                Select s = new Select();
                int closed = s.recv(dc);
                s.timeout(wait);
                if (s.select() != closed) {
                    throw new AskTimeoutException(what + " still pending after " + wait);
                }
            }
        }
        return outcome();
    }

    /** The channel complete() closes, or null if already complete. */
    private Chan<Object> doneChan() {
        if (Scheduler.current() != null && !Thread.currentThread().isVirtual()) {
            throw new IllegalStateException("Reply.get() in a behaviour actor would block its M: use pipeTo");
        }
        lock.lock();
        try {
            if (done) {
                return null;
            }
            if (doneChan == null) {
                doneChan = new Chan<>();
            }
            return doneChan;
        } finally {
            lock.unlock();
        }
    }

    private R outcome() {
        Throwable f = failure;
        if (f instanceof AskTimeoutException e) {
            throw new AskTimeoutException(e.getMessage()); // this thread's stack
        }
        if (f instanceof ActorStoppedException e) {
            throw new ActorStoppedException(e.getMessage(), e.getCause());
        }
        if (f instanceof MailboxFullException e) {
            throw new MailboxFullException(e.actor(), e.capacity()); // the request was never enqueued
        }
        if (f != null) {
            throw new IllegalStateException(what + " failed", f);
        }
        return value;
    }

    /**
     * The failure, or null if answered or still pending.
     *
     * <pre>{@code
     * if (r.isDone() && r.failure() instanceof AskTimeoutException) { ... }
     * }</pre>
     */
    public Throwable failure() {
        return done ? failure : null;
    }

    /**
     * A channel that receives the answer once and is then closed; closed without a value if the
     * ask fails (a receive then yields {@code ok == false}: check {@link #failure()}). For
     * {@code select}.
     *
     * <pre>{@code
     * Select s = new Select();
     * int a = s.recv(r.channel()), t = s.timeout(Duration.ofMillis(50));
     * if (s.select() == a && s.ok()) { Integer answer = s.value(); }
     * }</pre>
     */
    public RecvChan<R> channel() {
        Chan<R> vc;
        boolean fillNow;
        lock.lock();
        try {
            if (valueChan == null) {
                valueChan = new Chan<>(1);
                fillNow = done; // complete() ran before the channel existed: fill it here
            } else {
                fillNow = false;
            }
            vc = valueChan;
        } finally {
            lock.unlock();
        }
        if (fillNow) {
            fill(vc);
        }
        return vc;
    }

    /**
     * Runs {@code action} with (answer, null) or (null, failure) on completion, on the thread
     * that completes it (the answering actor's M, a timer, ...), or at once if already complete.
     * It must not block.
     *
     * <pre>{@code
     * r.whenComplete((v, err) -> System.out.println(err == null ? v : err));
     * }</pre>
     */
    @SuppressWarnings("unchecked")
    public void whenComplete(BiConsumer<? super R, ? super Throwable> action) {
        boolean now;
        lock.lock();
        try {
            now = done;
            if (!now) {
                if (callbacks == null) {
                    callbacks = action;
                } else if (callbacks instanceof ArrayList<?> list) {
                    ((ArrayList<Object>) list).add(action);
                } else {
                    ArrayList<Object> list = new ArrayList<>(2);
                    list.add(callbacks);
                    list.add(action);
                    callbacks = list;
                }
            }
        } finally {
            lock.unlock();
        }
        if (now) {
            run(action);
        }
    }

    /**
     * Sends the outcome to {@code target} as a message: {@code onAnswer.apply(answer)} or
     * {@code onFailure.apply(failure)}. How a behaviour actor asks without blocking.
     *
     * <pre>{@code
     * other.<Integer>ask(Get::new, Duration.ofSeconds(1))
     *      .pipeTo(ctx.self(), GotCount::new, AskFailed::new);
     * }</pre>
     */
    public <M> void pipeTo(ActorRef<M> target, Function<? super R, ? extends M> onAnswer,
                           Function<? super Throwable, ? extends M> onFailure) {
        whenComplete((v, f) -> target.tell(f == null ? onAnswer.apply(v) : onFailure.apply(f)));
    }

    /**
     * A {@link CompletableFuture} completed with the outcome (for code outside gmp4j; a
     * goroutine should prefer {@link #get()}).
     *
     * <pre>{@code
     * CompletableFuture<Integer> f = r.toCompletableFuture();
     * }</pre>
     */
    public CompletableFuture<R> toCompletableFuture() {
        CompletableFuture<R> f = new CompletableFuture<>();
        whenComplete((v, err) -> {
            if (err != null) {
                f.completeExceptionally(err);
            } else {
                f.complete(v);
            }
        });
        return f;
    }

    @Override
    public String toString() {
        return "Reply[" + what + (done ? (failure != null ? ", failed: " + failure : ", " + value) : ", pending") + "]";
    }
}
