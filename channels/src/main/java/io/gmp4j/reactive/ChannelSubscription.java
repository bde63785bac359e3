package io.gmp4j.reactive;

import io.gmp4j.GoRuntime;
import io.gmp4j.chan.Chan;
import io.gmp4j.chan.Select;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

/**
 * One subscriber fed from a channel by a goroutine of its own: the goroutine receives only while
 * there is demand, so a subscriber that requests nothing leaves the values in the channel (and
 * its senders blocked): backpressure reaches the producer through the channel.
 *
 * <p>Every signal to the subscriber comes from that one goroutine (§1.3: serial signals), and
 * {@code request}/{@code cancel} only record and wake it, so they never re-enter the subscriber
 * (§3.3) and never block (§3.4, §3.5).
 */
final class ChannelSubscription<T> implements Subscription {
    private final Chan<T> source;
    /** Says, once the source is closed, whether it ended with an error (null: completed). */
    private final Supplier<Throwable> errorAtClose;
    /** Called once when the subscription ends by cancel (to release a producer). */
    private final Runnable onCancel;
    private Subscriber<? super T> subscriber;
    private final AtomicLong requested = new AtomicLong();
    /** Wakes the goroutine when demand or cancellation arrives; capacity one, never blocks. */
    private final Chan<Boolean> wake = new Chan<>(1);
    /** Closed on cancel, so a receive in progress is abandoned. */
    private final Chan<Boolean> cancelled = new Chan<>();
    private final java.util.concurrent.atomic.AtomicBoolean cancelOnce = new java.util.concurrent.atomic.AtomicBoolean();
    /** A §3.9 violation to report: a request of zero or less. */
    private volatile IllegalArgumentException badRequest;

    ChannelSubscription(Chan<T> source, Supplier<Throwable> errorAtClose, Runnable onCancel,
            Subscriber<? super T> subscriber) {
        this.source = source;
        this.errorAtClose = errorAtClose;
        this.onCancel = onCancel;
        this.subscriber = subscriber;
    }

    /** §1.9: onSubscribe first, then the goroutine that emits. */
    void start() {
        subscriber.onSubscribe(this);
        GoRuntime.current().go(this::emit);
    }

    @Override
    public void request(long n) {
        if (n <= 0) {
            badRequest = new IllegalArgumentException(
                    "§3.9: request must be positive, was " + n);
        } else {
            requested.accumulateAndGet(n, Demand::addCap);
        }
        wake.trySend(Boolean.TRUE);
    }

    @Override
    public void cancel() {
        if (cancelOnce.compareAndSet(false, true)) {
            cancelled.close();
            wake.trySend(Boolean.TRUE);
            if (onCancel != null) {
                onCancel.run();
            }
        }
    }

    private boolean isCancelled() {
        return cancelOnce.get();
    }

    /** Wakes the emitting goroutine to look again (the producer closed the channel). */
    void poke() {
        wake.trySend(Boolean.TRUE);
    }

    /**
     * The channel is closed and drained: §1.6, the subscription is over; complete or fail,
     * unless the subscriber cancelled first. That race is real: cancelling a {@code publish}
     * subscription closes the producer's channel, so the select that waits on both the source
     * and {@code cancelled} may find the source closed first, and §3.12 allows no terminal
     * signal after a cancel.
     */
    private void finish(Subscriber<? super T> s) {
        if (!cancelOnce.compareAndSet(false, true)) {
            return;
        }
        Throwable err = errorAtClose.get();
        if (err != null) {
            s.onError(err);
        } else {
            s.onComplete();
        }
    }

    private void emit() {
        Subscriber<? super T> s = subscriber;
        Select sel = new Select();
        try {
            while (!isCancelled()) {
                if (badRequest != null) {
                    cancel();
                    s.onError(badRequest);
                    return;
                }
                long r = requested.get();
                if (r == 0) {
                    // §1.4: completion and errors need no demand. A closed channel that is empty
                    // stays empty, so this ends the stream without taking a value.
                    if (source.isClosed() && source.len() == 0) {
                        finish(s);
                        return;
                    }
                    wake.recv(); // request(), cancel() or poke() will send
                    continue;
                }
                sel.reset();
                int got = sel.recv(source);
                sel.recv(cancelled);
                if (sel.select() != got) {
                    return; // cancelled while waiting
                }
                if (!sel.ok()) {
                    finish(s);
                    return;
                }
                if (r != Long.MAX_VALUE) {
                    requested.decrementAndGet();
                }
                s.onNext(sel.value());
            }
        } catch (Throwable t) {
            // §2.13: a subscriber that throws has broken the contract; treat it as cancelled.
            cancel();
            Thread.currentThread().getUncaughtExceptionHandler().uncaughtException(Thread.currentThread(), t);
        } finally {
            subscriber = null; // §3.13: drop the subscriber once done
        }
    }
}
