package io.gmp4j.vertx;

import io.gmp4j.GoRuntime;
import io.gmp4j.chan.Chan;
import io.gmp4j.chan.ChannelClosedException;
import io.gmp4j.chan.RecvChan;
import io.gmp4j.chan.Select;
import io.gmp4j.runtime.Scheduler;
import io.gmp4j.sync.Semaphore;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.eventbus.MessageProducer;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * The Vert.x event bus and goroutines: an address's messages into a {@link Chan}
 * ({@link #fromAddress}), a channel's values to an address ({@link #sendTo}, {@link #publishTo}),
 * and a goroutine per message ({@link #consumer}).
 *
 * <pre>{@code
 * Chan<String> orders = new Chan<>(64);
 * EventBusBridge in = GoEventBus.fromAddress(vertx.eventBus(), "orders", orders, 1024);
 * go(() -> { for (String o : orders) handle(o); });       // one goroutine for the consumer
 *
 * Chan<String> events = new Chan<>(64);
 * EventBusBridge out = GoEventBus.publishTo(events, vertx.eventBus(), "events");
 * events.send("started");                                  // published to "events"
 * }</pre>
 *
 * <h2>Backpressure and loss</h2>
 * The event bus has no flow control: a sender never waits for a consumer. So a bridge from an
 * address holds what arrives in a buffer of {@code buffer} messages, from which one goroutine
 * moves them on (into the channel, parking while the channel is full; or to a handler goroutine,
 * at most {@code maxInFlight} at once). When the buffer is full, a further message is refused:
 * it is counted in {@link EventBusBridge#dropped()}, and a request (a message sent with a reply
 * handler) is failed back to its sender with code 503, so that no message is lost silently.
 * A message with a null body cannot go into a channel: it is refused the same way. A bridge to
 * an address has at most {@value #WINDOW} writes outstanding at the bus; a send the bus refuses
 * (no consumer) is counted as dropped.
 *
 * <p>The goroutines belong to the runtime of the caller (the default runtime when the caller is
 * not a goroutine). Called off an event loop, the factories from an address return once the
 * consumer is registered.
 */
public final class GoEventBus {
    /** Writes a channel-to-address bridge has outstanding at the bus at most. */
    public static final int WINDOW = 256;

    /** The failure code a refused request gets (service unavailable: the buffer was full). */
    public static final int REFUSED = 503;

    private GoEventBus() {
    }

    /**
     * Bridges {@code address} to {@code into}: each message's body is sent into the channel, in
     * the order the consumer got them. {@link EventBusBridge#close} unregisters the consumer;
     * the buffered bodies still go into the channel, then the channel is closed (so a
     * {@code for (T v : into)} ends). If the channel is closed by someone else, the bridge
     * stops and counts what it could not deliver as dropped.
     *
     * @param bus     the event bus
     * @param address the address to consume
     * @param into    the channel the bodies go to; the bridge owns its sending side
     * @param buffer  the messages held while the channel is full, at least 1
     * @param <T>     the body type
     * @return the running bridge
     */
    public static <T> EventBusBridge fromAddress(EventBus bus, String address, Chan<T> into, int buffer) {
        Objects.requireNonNull(bus, "bus");
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(into, "into");
        Handlers.checkInbox(buffer);
        GoRuntime rt = GoRuntime.current();
        Inbox<T> inbox = new Inbox<>(buffer, () -> { }, () -> { });
        MessageConsumer<T> consumer = bus.consumer(address);
        EventBusBridge bridge = new EventBusBridge(address + " -> channel", () -> stop(consumer, inbox));
        consumer.handler(m -> {
            T body = m.body();
            if (body == null || !inbox.tryOffer(body)) {
                refuse(bridge, m, body == null ? "a null body cannot go into a channel" : "the bridge's buffer is full");
            }
        });
        rt.go(() -> {
            try {
                for (T v; (v = inbox.take("event bus bridge")) != null; ) {
                    try {
                        into.send(v);
                    } catch (ChannelClosedException e) {
                        bridge.dropped(1);
                        bridge.close();
                        while (inbox.take("event bus bridge") != null) {
                            bridge.dropped(1);
                        }
                        return;
                    }
                    bridge.delivered(1);
                }
                into.close();
            } catch (ChannelClosedException closedByOthers) {
                // the channel's owner closed it first: it is closed either way
            }
        });
        awaitRegistration(consumer);
        return bridge;
    }

    /**
     * Sends each value received from {@code from} to {@code address} (point to point: one
     * consumer gets it), until the channel is closed and drained or the bridge is closed.
     *
     * @param from    the channel whose values go out
     * @param bus     the event bus
     * @param address where they go
     * @param <T>     the value type (a type the bus has a codec for)
     * @return the running bridge
     */
    public static <T> EventBusBridge sendTo(RecvChan<T> from, EventBus bus, String address) {
        Objects.requireNonNull(bus, "bus");
        Objects.requireNonNull(address, "address");
        return toAddress(from, bus.sender(address), "channel -> send " + address);
    }

    /**
     * Publishes each value received from {@code from} to {@code address} (every consumer gets
     * it), until the channel is closed and drained or the bridge is closed.
     *
     * @param from    the channel whose values go out
     * @param bus     the event bus
     * @param address where they go
     * @param <T>     the value type (a type the bus has a codec for)
     * @return the running bridge
     */
    public static <T> EventBusBridge publishTo(RecvChan<T> from, EventBus bus, String address) {
        Objects.requireNonNull(bus, "bus");
        Objects.requireNonNull(address, "address");
        return toAddress(from, bus.publisher(address), "channel -> publish " + address);
    }

    private static <T> EventBusBridge toAddress(RecvChan<T> from, MessageProducer<T> producer, String what) {
        Objects.requireNonNull(from, "from");
        GoRuntime rt = GoRuntime.current();
        Chan<Boolean> stop = new Chan<>();
        EventBusBridge bridge = new EventBusBridge(what, stop::close);
        Semaphore window = new Semaphore(WINDOW);
        rt.go(() -> {
            Select s = new Select();
            while (true) {
                s.reset();
                int value = s.recv(from);
                s.recv(stop);
                if (s.select() != value || !s.ok()) {
                    break; // the bridge closed, or the channel closed and is drained
                }
                T v = s.value();
                window.acquire(1);
                producer.write(v).onComplete(ar -> {
                    if (ar.succeeded()) {
                        bridge.delivered(1);
                    } else {
                        bridge.dropped(1);
                    }
                    window.release(1);
                });
            }
            window.acquire(WINDOW); // every write answered: the counts are final
            window.release(WINDOW);
            producer.close();
        });
        return bridge;
    }

    /**
     * Consumes {@code address} with a goroutine per message, at most {@code maxInFlight} at
     * once; messages wait in a buffer of {@code buffer} while that many run. A handler that
     * throws is reported (to the Vert.x instance's exception handler if it has one, else to
     * stderr) and, when the message was a request, fails it with code 500.
     * {@link EventBusBridge#close} unregisters the consumer; the buffered messages still run.
     *
     * @param bus         the event bus
     * @param address     the address to consume
     * @param maxInFlight handler goroutines running at once at most, at least 1
     * @param buffer      the messages held while {@code maxInFlight} run, at least 1
     * @param body        what a message's goroutine runs (it may {@code reply})
     * @param <T>         the body type
     * @return the running bridge; {@link EventBusBridge#delivered} counts the goroutines started
     */
    public static <T> EventBusBridge consumer(EventBus bus, String address, int maxInFlight, int buffer,
                                              Consumer<Message<T>> body) {
        Objects.requireNonNull(bus, "bus");
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(body, "body");
        if (maxInFlight < 1) {
            throw new IllegalArgumentException("maxInFlight must be at least 1: " + maxInFlight);
        }
        Handlers.checkInbox(buffer);
        GoRuntime rt = GoRuntime.current();
        Inbox<Message<T>> inbox = new Inbox<>(buffer, () -> { }, () -> { });
        MessageConsumer<T> consumer = bus.consumer(address);
        EventBusBridge bridge = new EventBusBridge(address + " -> goroutines", () -> stop(consumer, inbox));
        Context[] context = new Context[1];
        consumer.handler(m -> {
            context[0] = Vertx.currentContext(); // the consumer's one context; read after the inbox hand-off
            if (!inbox.tryOffer(m)) {
                refuse(bridge, m, "the consumer's buffer is full");
            }
        });
        Semaphore running = new Semaphore(maxInFlight);
        rt.go(() -> {
            for (Message<T> m; (m = inbox.take("event bus consumer")) != null; ) {
                running.acquire(1);
                bridge.delivered(1);
                Message<T> msg = m;
                Context ctx = context[0];
                rt.go(() -> {
                    try {
                        body.accept(msg);
                    } catch (Throwable t) {
                        Handlers.report(ctx, "the event-bus handler of " + msg.address(), t);
                        if (msg.replyAddress() != null) {
                            msg.fail(500, String.valueOf(t));
                        }
                    } finally {
                        running.release(1);
                    }
                });
            }
        });
        awaitRegistration(consumer);
        return bridge;
    }

    private static void refuse(EventBusBridge bridge, Message<?> m, String why) {
        bridge.dropped(1);
        if (m.replyAddress() != null) {
            m.fail(REFUSED, why);
        }
    }

    /** Unregisters, then ends the inbox on the consumer's side: no offer comes after the end. */
    private static void stop(MessageConsumer<?> consumer, Inbox<?> inbox) {
        consumer.unregister().onComplete(ar -> inbox.end());
    }

    private static void awaitRegistration(MessageConsumer<?> consumer) {
        if (!Context.isOnEventLoopThread() && !Scheduler.runningOnM()) {
            Await.await(consumer.completion());
        }
    }
}
