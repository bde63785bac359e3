package io.gmp4j.vertx;

import io.gmp4j.GoRuntime;
import io.gmp4j.NoUncaughtExceptions;
import io.gmp4j.TestSupport;
import io.gmp4j.chan.Chan;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.eventbus.DeliveryOptions;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.core.eventbus.ReplyException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The event-bus bridges on a real Vert.x instance: an address into a channel and a channel to an
 * address, with exact counts (every message delivered or counted as dropped, none twice, in
 * order), refusals failed back to requesters, and a goroutine per message with its bound.
 */
@ExtendWith(NoUncaughtExceptions.class)
class GoEventBusTest {
    private Vertx vertx;
    private EventBus bus;
    private GoRuntime rt;

    @BeforeEach
    void start() {
        vertx = Vertx.vertx();
        bus = vertx.eventBus();
        rt = GoRuntime.builder().maxProcs(2).name("vertx-bus").build();
    }

    @AfterEach
    void stop() {
        VertxTestSupport.close(vertx);
        rt.close();
    }

    @Test
    void anAddressFlowsIntoAChannelInOrderAndCloseEndsTheChannel() {
        int n = TestSupport.stress(20_000, 5_000);
        Chan<Integer> ch = new Chan<>(16);
        AtomicReference<EventBusBridge> bridge = new AtomicReference<>();
        TestSupport.runInGoroutine(rt, () -> bridge.set(GoEventBus.fromAddress(bus, "in", ch, n)));
        AtomicInteger received = new AtomicInteger();
        AtomicInteger outOfOrder = new AtomicInteger();
        CountDownLatch ended = new CountDownLatch(1);
        rt.go(() -> {
            int expect = 0;
            for (int v : ch) { // ends when the bridge closes the channel
                if (v != expect++) {
                    outOfOrder.incrementAndGet();
                }
                received.incrementAndGet();
            }
            ended.countDown();
        });
        for (int i = 0; i < n; i++) {
            bus.send("in", i); // from this platform thread: one sender, one consumer, in order
        }
        EventBusBridge b = bridge.get();
        TestSupport.awaitCondition(() -> b.delivered() + b.dropped() == n, () -> b.toString());
        b.close();
        TestSupport.await(ended, () -> "the channel did not close: " + b + " " + rt.dump());
        assertEquals(n, b.delivered());
        assertEquals(0, b.dropped());
        assertEquals(n, received.get());
        assertEquals(0, outOfOrder.get());
        assertTrue(ch.isClosed());
        assertTrue(b.isClosed());
    }

    /**
     * Nobody reads the channel: the bridge holds its buffer and the one value its goroutine is
     * sending, and refuses the rest, each counted; once read, exactly the held ones arrive.
     */
    @Test
    void aFullBridgeCountsEveryRefusalAndLosesNothingItTook() {
        int n = 2_000;
        int buffer = 8;
        Chan<Integer> ch = new Chan<>(); // unbuffered, nobody reading yet
        AtomicReference<EventBusBridge> bridge = new AtomicReference<>();
        TestSupport.runInGoroutine(rt, () -> bridge.set(GoEventBus.fromAddress(bus, "full", ch, buffer)));
        EventBusBridge b = bridge.get();
        VertxTestSupport.join(Future.<Void>future(done -> vertx.runOnContext(v -> {
            for (int i = 0; i < n; i++) {
                bus.send("full", i);
            }
            done.complete();
        })));
        // all n are handled (held or refused) before any is read: at most buffer + 1 are held
        TestSupport.awaitCondition(() -> b.dropped() >= n - buffer - 1
                        && b.dropped() + Math.min(buffer + 1, n) >= n,
                () -> b.toString());
        List<Integer> got = new ArrayList<>();
        TestSupport.runInGoroutine(rt, () -> {
            // Each message ends received here or dropped; while this reader waits the bridge
            // holds nothing, so a message still on its way is taken, not dropped.
            while (got.size() + b.dropped() < n) {
                got.add(ch.recv());
            }
        });
        // the bridge counts a delivery when its send returns, just after this reader got it
        TestSupport.awaitCondition(() -> b.delivered() == got.size(), b::toString);
        assertEquals(n, b.delivered() + b.dropped(), b::toString);
        assertTrue(got.size() == buffer || got.size() == buffer + 1, () -> "held " + got);
        for (int i = 1; i < got.size(); i++) {
            assertTrue(got.get(i - 1) < got.get(i), () -> "order " + got);
        }
        b.close();
    }

    @Test
    void aRefusedRequestFailsBackToItsSenderWith503() {
        Chan<String> ch = new Chan<>(); // nobody reads: the bridge holds 1 (its goroutine) + 1 (buffer)
        AtomicReference<EventBusBridge> bridge = new AtomicReference<>();
        TestSupport.runInGoroutine(rt, () -> bridge.set(GoEventBus.fromAddress(bus, "req", ch, 1)));
        EventBusBridge b = bridge.get();
        int n = 6;
        List<Future<io.vertx.core.eventbus.Message<Object>>> replies = new ArrayList<>();
        DeliveryOptions opts = new DeliveryOptions().setSendTimeout(TestSupport.TIMEOUT_S * 1000);
        for (int i = 0; i < n; i++) {
            replies.add(bus.request("req", "r" + i, opts));
        }
        TestSupport.awaitCondition(() -> b.dropped() >= n - 2 && b.delivered() + b.dropped() + 2 >= n, b::toString);
        TestSupport.awaitCondition(() -> replies.stream().filter(Future::failed).count() == b.dropped(),
                () -> "refusals answered: " + replies.stream().filter(Future::failed).count() + " " + b);
        for (Future<io.vertx.core.eventbus.Message<Object>> r : replies) {
            if (r.failed()) {
                ReplyException e = assertInstanceOf(ReplyException.class, r.cause());
                assertEquals(GoEventBus.REFUSED, e.failureCode());
            }
        }
        // read what the bridge took: with the refusals, every request is accounted for
        List<String> got = new ArrayList<>();
        TestSupport.runInGoroutine(rt, () -> {
            while (got.size() + b.dropped() < n) {
                got.add(ch.recv());
            }
        });
        assertEquals(n, got.size() + b.dropped());
        TestSupport.awaitCondition(() -> b.delivered() == got.size(), b::toString);
        b.close();
    }

    @Test
    void aChannelFlowsToAnAddressInOrderWithExactCounts() {
        int n = TestSupport.stress(20_000, 5_000);
        AtomicInteger got = new AtomicInteger();
        AtomicInteger outOfOrder = new AtomicInteger();
        CountDownLatch all = new CountDownLatch(1);
        MessageConsumer<Integer> c = bus.consumer("out", m -> {
            if (m.body() != got.getAndIncrement()) {
                outOfOrder.incrementAndGet();
            }
            if (got.get() == n) {
                all.countDown();
            }
        });
        VertxTestSupport.join(c.completion());
        Chan<Integer> ch = new Chan<>(64);
        AtomicReference<EventBusBridge> bridge = new AtomicReference<>();
        TestSupport.runInGoroutine(rt, () -> {
            bridge.set(GoEventBus.sendTo(ch, bus, "out"));
            for (int i = 0; i < n; i++) {
                ch.send(i);
            }
            ch.close(); // the bridge drains it and stops
        });
        TestSupport.await(all, () -> "received " + got.get() + " of " + n + ": " + bridge.get());
        EventBusBridge b = bridge.get();
        TestSupport.awaitCondition(() -> b.delivered() + b.dropped() == n, b::toString);
        assertEquals(n, b.delivered());
        assertEquals(0, b.dropped());
        assertEquals(n, got.get());
        assertEquals(0, outOfOrder.get());
    }

    @Test
    void aSendNobodyConsumesIsCountedAsDroppedAndPublishReachesEveryConsumer() {
        Chan<String> nowhere = new Chan<>(8);
        Chan<String> events = new Chan<>(8);
        int n = 500;
        AtomicInteger first = new AtomicInteger();
        AtomicInteger second = new AtomicInteger();
        CountDownLatch both = new CountDownLatch(2);
        for (AtomicInteger count : List.of(first, second)) {
            VertxTestSupport.join(bus.consumer("events", m -> {
                if (count.incrementAndGet() == n) {
                    both.countDown();
                }
            }).completion());
        }
        AtomicReference<EventBusBridge> lost = new AtomicReference<>();
        AtomicReference<EventBusBridge> published = new AtomicReference<>();
        TestSupport.runInGoroutine(rt, () -> {
            lost.set(GoEventBus.sendTo(nowhere, bus, "nobody"));
            published.set(GoEventBus.publishTo(events, bus, "events"));
            for (int i = 0; i < n; i++) {
                nowhere.send("x" + i);
                events.send("e" + i);
            }
            nowhere.close();
            events.close();
        });
        TestSupport.await(both, () -> first.get() + " and " + second.get() + " of " + n);
        TestSupport.awaitCondition(() -> lost.get().dropped() == n, () -> lost.get().toString());
        assertEquals(0, lost.get().delivered());
        TestSupport.awaitCondition(() -> published.get().delivered() == n, () -> published.get().toString());
        assertEquals(n, first.get());
        assertEquals(n, second.get());
    }

    @Test
    void closingAChannelToAddressBridgeStopsItsGoroutine() {
        Chan<Integer> ch = new Chan<>(4);
        AtomicReference<EventBusBridge> bridge = new AtomicReference<>();
        TestSupport.runInGoroutine(rt, () -> bridge.set(GoEventBus.sendTo(ch, bus, "stopped")));
        long before = rt.numGoroutine();
        bridge.get().close();
        TestSupport.awaitCondition(() -> rt.numGoroutine() < before, () -> rt.dump());
        assertTrue(ch.trySend(1), "the channel is not closed by the bridge: it belongs to its sender");
    }

    @Test
    void aGoroutinePerMessageRepliesWithinItsBoundAndAFailingHandlerFailsTheRequest() {
        int n = TestSupport.stress(5_000, 1_000);
        int maxInFlight = 4;
        AtomicInteger running = new AtomicInteger();
        AtomicInteger maxRunning = new AtomicInteger();
        List<Throwable> reported = java.util.Collections.synchronizedList(new ArrayList<>());
        vertx.exceptionHandler(reported::add);
        AtomicReference<EventBusBridge> bridge = new AtomicReference<>();
        TestSupport.runInGoroutine(rt, () -> bridge.set(GoEventBus.<Integer>consumer(bus, "work", maxInFlight, n + 1, m -> {
            int now = running.incrementAndGet();
            maxRunning.accumulateAndGet(now, Math::max);
            try {
                if (m.body() < 0) {
                    throw new IllegalArgumentException("negative " + m.body());
                }
                Await.await(vertx.timer(1)); // a goroutine may wait on Vert.x while it handles
                m.reply(m.body() * 2);
            } finally {
                running.decrementAndGet();
            }
        })));
        List<Future<Integer>> replies = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            replies.add(bus.<Integer>request("work", i).map(io.vertx.core.eventbus.Message::body));
        }
        Future<io.vertx.core.eventbus.Message<Object>> failing = bus.request("work", -1);
        for (int i = 0; i < n; i++) {
            assertEquals(i * 2, (int) VertxTestSupport.join(replies.get(i)));
        }
        ReplyException e = assertInstanceOf(ReplyException.class, assertThrows(AssertionError.class,
                () -> VertxTestSupport.join(failing)).getCause().getCause());
        assertEquals(500, e.failureCode());
        assertEquals(n + 1, bridge.get().delivered());
        assertEquals(0, bridge.get().dropped());
        assertTrue(maxRunning.get() <= maxInFlight, "running at once: " + maxRunning.get());
        assertEquals(1, reported.size(), () -> "reported " + reported);
        bridge.get().close();
    }

    @Test
    void badArgumentsAreRefused() {
        Chan<String> ch = new Chan<>();
        assertThrows(IllegalArgumentException.class, () -> GoEventBus.fromAddress(bus, "a", ch, 0));
        assertThrows(IllegalArgumentException.class, () -> GoEventBus.<String>consumer(bus, "a", 0, 1, m -> { }));
        assertThrows(NullPointerException.class, () -> GoEventBus.sendTo(null, bus, "a"));
    }
}
