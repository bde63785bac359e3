package io.gmp4j.reactive;

import io.gmp4j.GoRuntime;
import io.gmp4j.chan.Chan;
import io.gmp4j.chan.ChannelClosedException;
import io.gmp4j.chan.RecvChan;
import io.gmp4j.chan.SendChan;
import java.util.concurrent.Flow;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.reactivestreams.FlowAdapters;
import org.reactivestreams.Publisher;

/**
 * The bridge between channels and Reactive Streams ({@code org.reactivestreams}, with
 * {@link java.util.concurrent.Flow} adapters).
 *
 * <ul>
 *   <li>{@link #publisher(RecvChan)}: an existing channel as a {@link Publisher}. Subscribers
 *       <b>share</b> it, as goroutines receiving from one channel do: each value goes to exactly
 *       one subscriber. Demand-driven: values are received only when requested. Completes when
 *       the channel is closed and drained.</li>
 *   <li>{@link #publish(Producer)}: a cold {@link Publisher}: <b>each</b> subscriber gets every
 *       value, from its own run of the producer in its own goroutine, sending on its own
 *       channel. The producer's return completes the stream; an exception it throws is
 *       delivered as {@code onError}; a cancel makes its next send fail, ending it.</li>
 *   <li>{@link #subscribe(Publisher, int)}: a {@link Publisher} drained into a channel, requesting
 *       only as the buffer frees.</li>
 * </ul>
 *
 * <pre>{@code
 * Publisher<Integer> p = Reactive.publish(out -> { for (int i = 0; i < 3; i++) out.send(i); });
 * ChanSubscriber<Integer> sub = Reactive.subscribe(p, 16);
 * for (int v : sub.c()) System.out.println(v);   // 0 1 2
 * }</pre>
 */
public final class Reactive {
    private Reactive() {
    }

    /** The body of a {@link #publish} publisher: sends its values, then returns (or throws). */
    @FunctionalInterface
    public interface Producer<T> {
        /** Sends the stream's values on {@code out}; returning completes the stream. */
        void produce(SendChan<T> out) throws Exception;
    }

    /**
     * A channel as a hot, shared {@link Publisher} (see the class comment). Each subscription
     * is served by a goroutine of the calling goroutine's runtime (the default runtime when the
     * caller is not a goroutine).
     */
    public static <T> Publisher<T> publisher(RecvChan<T> ch) {
        if (ch == null) {
            throw new NullPointerException("publisher: null channel");
        }
        return subscriber -> {
            if (subscriber == null) {
                throw new NullPointerException("§1.9: subscribe(null)");
            }
            new ChannelSubscription<T>((Chan<T>) ch, () -> null, null, subscriber).start();
        };
    }

    /**
     * A cold {@link Publisher} whose every subscriber runs {@code producer} in a goroutine of its
     * own, on an unbuffered channel: the producer runs no further ahead than the subscriber's
     * demand plus the one value in hand.
     */
    public static <T> Publisher<T> publish(Producer<T> producer) {
        if (producer == null) {
            throw new NullPointerException("publish: null producer");
        }
        return subscriber -> {
            if (subscriber == null) {
                throw new NullPointerException("§1.9: subscribe(null)");
            }
            Chan<T> ch = new Chan<>();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            AtomicBoolean closed = new AtomicBoolean();
            AtomicBoolean cancelled = new AtomicBoolean();
            Runnable closeOnce = () -> {
                if (closed.compareAndSet(false, true)) {
                    ch.close();
                }
            };
            // Cancel closes the producer's channel: its blocked or next send fails and it ends.
            Runnable onCancel = () -> {
                cancelled.set(true);
                closeOnce.run();
            };
            ChannelSubscription<T> subscription = new ChannelSubscription<>(ch, failure::get, onCancel, subscriber);
            subscription.start();
            GoRuntime.current().go(() -> {
                try {
                    producer.produce(ch);
                } catch (ChannelClosedException e) {
                    if (!cancelled.get()) {
                        failure.set(e);
                    }
                } catch (Throwable t) {
                    failure.set(t); // published by the close below (happens-before the receive)
                } finally {
                    closeOnce.run();
                    subscription.poke(); // deliver the end even if nothing is requested (§1.4)
                }
            });
        };
    }

    /**
     * Subscribes to {@code publisher} and delivers its values on a channel of {@code capacity}
     * (at least 1). Requests {@code capacity} at first and then one more for each value moved
     * into the channel, so at most about twice {@code capacity} values are ever buffered: a slow
     * receiver slows the publisher down instead of growing a buffer.
     */
    public static <T> ChanSubscriber<T> subscribe(Publisher<? extends T> publisher, int capacity) {
        ChanSubscriber<T> s = new ChanSubscriber<>(capacity);
        publisher.subscribe(s);
        return s;
    }

    /** This {@link Publisher} as a {@link Flow.Publisher}. */
    public static <T> Flow.Publisher<T> toFlow(Publisher<T> p) {
        return FlowAdapters.toFlowPublisher(p);
    }

    /** A {@link Flow.Publisher} as a {@link Publisher}. */
    public static <T> Publisher<T> fromFlow(Flow.Publisher<T> p) {
        return FlowAdapters.toPublisher(p);
    }
}
