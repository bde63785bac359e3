package io.gmp4j.reactive;

import io.gmp4j.GoRuntime;
import io.gmp4j.chan.Chan;
import io.gmp4j.chan.ChannelClosedException;
import io.gmp4j.chan.RecvChan;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jctools.queues.SpscArrayQueue;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

/**
 * A {@link Subscriber} that delivers what it receives on a channel: read {@link #c()} like any
 * channel ({@code for (T v : sub.c())}); it is closed when the publisher completes or fails, and
 * then {@link #err()} tells which.
 *
 * <p>Backpressure: it requests {@code capacity} values at first, and one more each time a
 * value has moved into the channel. The publisher's signals only enqueue (they never block the
 * publisher's thread); a goroutine of its own moves values into the channel with blocking sends.
 * So at most {@code capacity} values wait in the queue and {@code capacity} in the channel.
 */
public final class ChanSubscriber<T> implements Subscriber<T> {
    private final int capacity;
    private final Chan<T> out;
    /** Values received, not yet sent on the channel. Single producer (§1.3), single consumer. */
    private final SpscArrayQueue<T> queue;
    /** Wakes the pump; capacity one, so signals never block. */
    private final Chan<Boolean> wake = new Chan<>(1);
    private final AtomicBoolean closeOnce = new AtomicBoolean();
    private volatile Subscription subscription;
    private volatile boolean done;
    private volatile Throwable error;
    private volatile boolean cancelled;

    /**
     * A subscriber delivering on a channel of {@code capacity} values.
     *
     * @throws IllegalArgumentException if capacity is less than 1
     */
    public ChanSubscriber(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be at least 1, was " + capacity);
        }
        this.capacity = capacity;
        this.out = new Chan<>(capacity);
        this.queue = new SpscArrayQueue<>(capacity);
    }

    /** The channel the values arrive on; closed after the last one. */
    public RecvChan<T> c() {
        return out;
    }

    /** Once {@link #c()} is closed: the publisher's error, or null if it completed. */
    public Throwable err() {
        return error;
    }

    /** Cancels the subscription and closes the channel (values still buffered there remain). */
    public void cancel() {
        cancelled = true;
        Subscription s = subscription;
        if (s != null) {
            s.cancel();
        }
        closeOut(); // a pump blocked sending to a receiver that left fails and ends
        wake.trySend(Boolean.TRUE);
    }

    @Override
    public void onSubscribe(Subscription s) {
        if (s == null) {
            throw new NullPointerException("§2.13: onSubscribe(null)");
        }
        if (subscription != null || cancelled) {
            s.cancel(); // §2.5: one subscription at a time
            return;
        }
        subscription = s;
        GoRuntime.current().go(this::pump);
        s.request(capacity);
    }

    @Override
    public void onNext(T t) {
        if (t == null) {
            throw new NullPointerException("§2.13: onNext(null)");
        }
        if (!queue.offer(t)) {
            // More than requested: the publisher broke §1.1. Report it rather than drop it.
            error = new IllegalStateException("§1.1: publisher sent more than requested");
            cancelled = true;
            Subscription s = subscription;
            if (s != null) {
                s.cancel();
            }
        }
        wake.trySend(Boolean.TRUE);
    }

    @Override
    public void onError(Throwable t) {
        if (t == null) {
            throw new NullPointerException("§2.13: onError(null)");
        }
        error = t;
        done = true;
        wake.trySend(Boolean.TRUE);
    }

    @Override
    public void onComplete() {
        done = true;
        wake.trySend(Boolean.TRUE);
    }

    /** Moves values from the queue into the channel, requesting one more per value moved. */
    private void pump() {
        try {
            while (true) {
                if (cancelled) {
                    return;
                }
                T v = queue.poll();
                if (v != null) {
                    out.send(v);
                    subscription.request(1);
                    continue;
                }
                if (done && queue.isEmpty()) {
                    return;
                }
                wake.recv();
            }
        } catch (ChannelClosedException e) {
            // closed by cancel while sending: nothing more to deliver
        } finally {
            closeOut();
        }
    }

    private void closeOut() {
        if (closeOnce.compareAndSet(false, true)) {
            out.close();
        }
    }
}
