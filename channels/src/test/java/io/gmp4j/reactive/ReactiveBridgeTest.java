package io.gmp4j.reactive;

import io.gmp4j.GoRuntime;
import io.gmp4j.NoUncaughtExceptions;
import io.gmp4j.TestSupport;
import io.gmp4j.chan.Chan;
import java.time.Duration;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.Flow;
import java.util.concurrent.SubmissionPublisher;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.reactivestreams.Publisher;
import org.reactivestreams.Subscription;
import org.reactivestreams.Subscriber;
import reactor.core.publisher.Flux;
import reactor.test.StepVerifier;

import static org.junit.jupiter.api.Assertions.*;

/**
 * What a user of the channel/Reactive Streams bridge relies on, checked with Reactor's
 * StepVerifier and exact counting: values in order, completion on close, errors delivered,
 * demand respected in both directions, shared versus per-subscriber delivery.
 */
@ExtendWith(NoUncaughtExceptions.class)
class ReactiveBridgeTest {
    private static final Duration T = Duration.ofSeconds(TestSupport.TIMEOUT_S);

    @Test
    void publishEmitsInOrderAndCompletes() {
        Publisher<Integer> p = Reactive.publish(out -> {
            for (int i = 0; i < 5; i++) {
                out.send(i);
            }
        });
        StepVerifier.create(p).expectNext(0, 1, 2, 3, 4).expectComplete().verify(T);
        // cold: a second subscriber gets everything again
        StepVerifier.create(p).expectNextCount(5).expectComplete().verify(T);
    }

    @Test
    void producerExceptionBecomesOnError() {
        Publisher<Integer> p = Reactive.publish(out -> {
            out.send(1);
            throw new IllegalStateException("disk on fire");
        });
        StepVerifier.create(p).expectNext(1).expectErrorMessage("disk on fire").verify(T);
    }

    @Test
    void valuesAreReceivedOnlyOnDemand() {
        Chan<Integer> ch = new Chan<>(8);
        for (int i = 0; i < 8; i++) {
            ch.send(i);
        }
        ch.close();
        StepVerifier.create(Reactive.publisher(ch), 0)
                .expectSubscription()
                .thenRequest(3)
                .expectNext(0, 1, 2)
                .then(() -> assertEquals(5, ch.len(), "only what was requested left the channel"))
                .thenCancel()
                .verify(T);
        assertEquals(5, ch.len(), "cancel took nothing more");
    }

    @Test
    void cancelEndsAProducerBlockedInSend() {
        try (GoRuntime rt = GoRuntime.builder().maxProcs(2).name("reactive-cancel").build()) {
            TestSupport.runInGoroutine(rt, () -> {
                Chan<String> producerEnded = new Chan<>(1);
                Publisher<Long> endless = Reactive.publish(out -> {
                    try {
                        for (long i = 0; ; i++) {
                            out.send(i);
                        }
                    } finally {
                        producerEnded.send("ended");
                    }
                });
                StepVerifier.create(endless).expectNext(0L, 1L, 2L).thenCancel().verify(T);
                assertEquals("ended", producerEnded.recv());
            });
        }
    }

    /**
     * §3.12: after cancel, no terminal signal. Cancelling a {@code publish} subscription closes
     * the producer's channel as well, so an emitter that checked for cancellation just before
     * the cancel and then selects finds both its cases ready (the closed source, the closed
     * cancel channel) and used to pick the source half the time: onComplete after cancel. The
     * window is short; many rounds with the cancel from another P reach it (the Reactive
     * Streams TCK's rule 3.12 test once did).
     */
    @Test
    void noTerminalSignalAfterCancel() {
        int rounds = TestSupport.stress(10_000, 5_000);
        try (GoRuntime rt = GoRuntime.builder().maxProcs(2).name("reactive-cancel-race").build()) {
            TestSupport.runInGoroutine(rt, () -> {
                long base = rt.numGoroutine();
                AtomicInteger terminal = new AtomicInteger();
                for (int round = 0; round < rounds; round++) {
                    Chan<Subscription> subscribed = new Chan<>(1);
                    Chan<Boolean> first = new Chan<>(1);
                    Publisher<Long> endless = Reactive.publish(out -> {
                        for (long i = 0; ; i++) {
                            out.send(i);
                        }
                    });
                    endless.subscribe(new Subscriber<Long>() {
                        @Override
                        public void onSubscribe(Subscription s) {
                            s.request(Long.MAX_VALUE);
                            subscribed.trySend(s);
                        }

                        @Override
                        public void onNext(Long v) {
                            first.trySend(Boolean.TRUE);
                        }

                        @Override
                        public void onError(Throwable t) {
                            terminal.incrementAndGet();
                        }

                        @Override
                        public void onComplete() {
                            terminal.incrementAndGet();
                        }
                    });
                    Subscription s = subscribed.recv();
                    first.recv();
                    s.cancel();
                    // Both goroutines (producer, emitter) end after a cancel; any signal comes first.
                    TestSupport.awaitCondition(() -> rt.numGoroutine() == base, () -> rt.stats().toString());
                }
                assertEquals(0, terminal.get(), "terminal signals after cancel in " + rounds + " rounds");
            });
        }
    }

    /** Subscribers of one channel share it: each value reaches exactly one of them. */
    @Test
    void channelPublisherSubscribersShareTheValues() {
        int n = TestSupport.stress(20_000, 5_000);
        Chan<Integer> ch = new Chan<>(64);
        GoRuntime.defaultRuntime().go(() -> {
            for (int i = 0; i < n; i++) {
                ch.send(i);
            }
            ch.close();
        });
        Publisher<Integer> p = Reactive.publisher(ch);
        List<Integer> a = new ArrayList<>();
        List<Integer> b = new ArrayList<>();
        Flux<Integer> both = Flux.merge(Flux.from(p).doOnNext(a::add), Flux.from(p).doOnNext(b::add));
        StepVerifier.create(both).expectNextCount(n).expectComplete().verify(T);
        BitSet seen = new BitSet(n);
        for (List<Integer> l : List.of(a, b)) {
            for (int v : l) {
                assertFalse(seen.get(v), "value " + v + " delivered twice");
                seen.set(v);
            }
        }
        assertEquals(n, seen.cardinality(), "every value delivered");
    }

    /** The subscriber side requests only as the channel's buffer frees: memory stays bounded. */
    @Test
    void subscriberRequestsOnlyAsTheBufferFrees() {
        int cap = 8;
        AtomicLong requested = new AtomicLong();
        Flux<Integer> source = Flux.range(0, 10_000).doOnRequest(r -> requested.accumulateAndGet(r, Demand::addCap));
        ChanSubscriber<Integer> sub = Reactive.subscribe(source, cap);
        // Nobody receives: cap values fill the channel, cap more wait in the queue, and then
        // the pump blocks, so demand stops at exactly 2 * cap.
        TestSupport.awaitCondition(() -> sub.c().len() == cap && requested.get() == 2L * cap,
                () -> "requested " + requested + ", buffered " + sub.c().len());
        assertEquals(0, sub.c().recv());
        TestSupport.awaitCondition(() -> requested.get() == 2L * cap + 1, () -> "requested " + requested);
        int expect = 1;
        for (int v : sub.c()) {
            assertEquals(expect++, v);
        }
        assertEquals(10_000, expect);
        assertNull(sub.err());
        assertTrue(requested.get() <= 10_000 + 2L * cap);
    }

    @Test
    void subscriberDeliversThePublishersError() {
        ChanSubscriber<Integer> sub = Reactive.subscribe(
                Flux.just(1, 2).concatWith(Flux.error(new IllegalArgumentException("bad input"))), 4);
        List<Integer> got = new ArrayList<>();
        for (int v : sub.c()) {
            got.add(v);
        }
        assertEquals(List.of(1, 2), got);
        assertEquals("bad input", sub.err().getMessage());
    }

    @Test
    void flowAdaptersRoundTrip() throws Exception {
        try (SubmissionPublisher<String> sp = new SubmissionPublisher<>()) {
            ChanSubscriber<String> sub = Reactive.subscribe(Reactive.fromFlow(sp), 2);
            TestSupport.awaitCondition(() -> sp.getNumberOfSubscribers() == 1, () -> "not subscribed");
            sp.submit("a");
            sp.submit("b");
            sp.close();
            List<String> got = new ArrayList<>();
            for (String s : sub.c()) {
                got.add(s);
            }
            assertEquals(List.of("a", "b"), got);
        }
        Flow.Publisher<Integer> flow = Reactive.toFlow(Reactive.publish(out -> out.send(42)));
        StepVerifier.create(reactor.adapter.JdkFlowAdapter.flowPublisherToFlux(flow)).expectNext(42).expectComplete().verify(T);
    }
}
