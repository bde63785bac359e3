package io.gmp4j.chan;

import io.gmp4j.Go;
import io.gmp4j.GoRuntime;
import io.gmp4j.NoUncaughtExceptions;
import io.gmp4j.TestSupport;
import io.gmp4j.chan.ChanTestSupport.Group;
import io.gmp4j.runtime.G;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static io.gmp4j.chan.ChanTestSupport.awaitParked;
import static io.gmp4j.chan.ChanTestSupport.run;
import static io.gmp4j.chan.ChanTestSupport.runtime;
import static org.junit.jupiter.api.Assertions.*;

/**
 * Go's {@code runtime/chan_test.go} for channel operations (the select tests are in
 * {@link GoSelectTest}): what a Go programmer relies on when moving code over. Receives block on
 * an empty channel and sends on a full one (shown by the goroutine being parked on "chan
 * receive"/"chan send", not by sleeping); non-blocking operations never block and never fail
 * when the channel is ready; values leave in FIFO order; close drains the buffer and then
 * yields {@code (null, false)}; every value sent is received exactly once by exactly one
 * receiver, goroutine or platform thread. Each test runs with GOMAXPROCS 1 and 2.
 */
@ExtendWith(NoUncaughtExceptions.class)
class GoChanTest {

    /** Go's TestChan: every behaviour for every capacity 0..N-1. */
    @ParameterizedTest(name = "maxProcs={0}")
    @ValueSource(ints = {1, 2})
    void chanSemanticsForEveryCapacity(int procs) throws Exception {
        int caps = TestSupport.stress(200, 20);
        try (GoRuntime rt = runtime(procs, "chan-test")) {
            for (int cap = 0; cap < caps; cap++) {
                receiveFromEmptyBlocks(rt, cap);
                sendToFullBlocks(rt, cap);
                closedChannelDrainsThenYieldsZero(cap);
                closeUnblocksReceiversAndFailsSenders(rt, cap);
                fifoOrder(rt, cap);
                everyValueReceivedOnce(rt, cap);
                lenAndCap(cap);
            }
        }
    }

    private static void receiveFromEmptyBlocks(GoRuntime rt, int cap) {
        Chan<Integer> c = new Chan<>(cap);
        AtomicBoolean recv1 = new AtomicBoolean();
        AtomicBoolean recv2 = new AtomicBoolean();
        Group group = new Group(rt);
        G r1 = group.go(() -> {
            assertEquals(0, c.recv());
            recv1.set(true);
        });
        G r2 = group.go(() -> {
            assertEquals(new Recv<>(0, true), c.recvOk());
            recv2.set(true);
        });
        awaitParked(rt, r1, "chan receive");
        awaitParked(rt, r2, "chan receive");
        assertFalse(recv1.get() || recv2.get(), () -> "chan[" + cap + "]: receive from empty chan");
        // Non-blocking receives see it empty (and do not take a receiver's place).
        assertNull(c.tryRecv(), () -> "chan[" + cap + "]: tryRecv from empty chan");
        Select s = new Select();
        s.recv(c);
        assertEquals(Select.DEFAULT, s.selectNow(), () -> "chan[" + cap + "]: select receive from empty chan");
        assertEquals(0, c.len());
        c.send(0);
        c.send(0);
        group.join();
        assertTrue(recv1.get() && recv2.get());
        assertEquals(0, c.len(), "both values went to the parked receivers");
    }

    private static void sendToFullBlocks(GoRuntime rt, int cap) {
        Chan<Integer> c = new Chan<>(cap);
        for (int i = 0; i < cap; i++) {
            c.send(i);
        }
        AtomicBoolean sent = new AtomicBoolean();
        Group group = new Group(rt);
        G sender = group.go(() -> {
            c.send(-1);
            sent.set(true);
        });
        awaitParked(rt, sender, "chan send");
        assertFalse(sent.get(), () -> "chan[" + cap + "]: send to full chan");
        assertFalse(c.trySend(99), () -> "chan[" + cap + "]: trySend to full chan");
        Select s = new Select();
        s.send(c, 99);
        assertEquals(Select.DEFAULT, s.selectNow(), () -> "chan[" + cap + "]: select send to full chan");
        assertEquals(cap, c.len());
        // The receive takes the head; the parked sender's value moves to the tail.
        assertEquals(cap > 0 ? 0 : -1, c.recv());
        group.join();
        assertTrue(sent.get());
        assertEquals(cap, c.len());
        for (int i = 1; i < cap; i++) {
            assertEquals(i, c.recv());
        }
        if (cap > 0) {
            assertEquals(-1, c.recv(), "the blocked sender's value comes last");
        }
        assertNull(c.tryRecv());
    }

    private static void closedChannelDrainsThenYieldsZero(int cap) {
        Chan<Integer> c = new Chan<>(cap);
        for (int i = 0; i < cap; i++) {
            c.send(i);
        }
        c.close();
        assertTrue(c.isClosed());
        assertEquals(cap, c.len(), "close keeps the buffered values");
        for (int i = 0; i < cap; i++) {
            if (i % 2 == 0) {
                assertEquals(i, c.recv());
            } else {
                assertEquals(new Recv<>(i, true), c.tryRecv());
            }
        }
        assertNull(c.recv());
        assertEquals(Recv.closed(), c.recvOk());
        assertEquals(Recv.closed(), c.tryRecv(), "a closed channel is always ready");
        assertFalse(c.iterator().hasNext());
        ChannelClosedException e = assertThrows(ChannelClosedException.class, () -> c.trySend(1));
        assertEquals("send on closed channel", e.getMessage());
    }

    private static void closeUnblocksReceiversAndFailsSenders(GoRuntime rt, int cap) {
        Chan<Integer> c = new Chan<>(cap);
        Group group = new Group(rt);
        G receiver = group.go(() -> assertEquals(Recv.closed(), c.recvOk()));
        G ranger = group.go(() -> {
            for (Integer v : c) {
                fail("range over an empty closed channel yielded " + v);
            }
        });
        awaitParked(rt, receiver, "chan receive");
        awaitParked(rt, ranger, "chan receive");
        c.close();
        group.join();

        Chan<Integer> full = new Chan<>(cap);
        for (int i = 0; i < cap; i++) {
            full.send(i);
        }
        G sender = group.go(() -> {
            ChannelClosedException e = assertThrows(ChannelClosedException.class, () -> full.send(-1));
            assertEquals("send on closed channel", e.getMessage());
        });
        awaitParked(rt, sender, "chan send");
        full.close();
        group.join();
        for (int i = 0; i < cap; i++) {
            assertEquals(i, full.recv(), "the failed send left the buffer alone");
        }
        assertEquals(Recv.closed(), full.recvOk());
    }

    /** 100 values in order, received by a platform thread from a goroutine, with recv and recvOk. */
    private static void fifoOrder(GoRuntime rt, int cap) {
        Chan<Integer> c = new Chan<>(cap);
        Group group = new Group(rt);
        for (int round = 0; round < 2; round++) {
            group.go(() -> {
                for (int i = 0; i < 100; i++) {
                    c.send(i);
                }
            });
            for (int i = 0; i < 100; i++) {
                if (round == 0) {
                    assertEquals(i, c.recv(), "chan[" + cap + "]");
                } else {
                    assertEquals(new Recv<>(i, true), c.recvOk(), "chan[" + cap + "]");
                }
            }
            group.join();
        }
    }

    /** 4 senders x L values; 4 receivers (2 goroutines, 2 platform threads) take L each. */
    private static void everyValueReceivedOnce(GoRuntime rt, int cap) {
        final int p = 4;
        final int l = 1000;
        Chan<Integer> c = new Chan<>(cap);
        AtomicIntegerArray recv = new AtomicIntegerArray(l);
        Group group = new Group(rt);
        for (int k = 0; k < p; k++) {
            group.go(() -> {
                for (int i = 0; i < l; i++) {
                    c.send(i);
                }
            });
        }
        for (int k = 0; k < p; k++) {
            TestSupport.Body consumer = () -> {
                for (int i = 0; i < l; i++) {
                    recv.incrementAndGet(c.recv());
                }
            };
            if (k % 2 == 0) {
                group.go(consumer);
            } else {
                group.thread(consumer);
            }
        }
        group.join();
        for (int v = 0; v < l; v++) {
            assertEquals(p, recv.get(v), "chan[" + cap + "]: times value " + v + " was received");
        }
        assertEquals(0, c.len());
        assertNull(c.tryRecv());
    }

    private static void lenAndCap(int cap) {
        Chan<Integer> c = new Chan<>(cap);
        assertEquals(0, c.len());
        assertEquals(cap, c.cap());
        assertEquals(cap, c.sendOnly().cap());
        assertEquals(cap, c.recvOnly().cap());
        for (int i = 0; i < cap; i++) {
            c.send(i);
            assertEquals(i + 1, c.len());
        }
        assertEquals(cap, c.len());
        assertEquals(cap, c.cap());
        c.close();
        assertEquals(cap, c.len());
    }

    /**
     * Go's TestNonblockRecvRace: a channel that holds a value and is being closed is always
     * ready, so a non-blocking receive never reports "would block"; and the one value goes to
     * exactly one of the two receivers.
     */
    @ParameterizedTest(name = "maxProcs={0}")
    @ValueSource(ints = {1, 2})
    void nonBlockingReceiveOfReadyChannelNeverBlocks(int procs) {
        int n = TestSupport.stress(10_000, 1_000);
        try (GoRuntime rt = runtime(procs, "nb-recv-race")) {
            run(rt, () -> {
                AtomicInteger ones = new AtomicInteger();
                Group group = new Group(rt);
                for (int i = 0; i < n; i++) {
                    Chan<Integer> c = new Chan<>(1);
                    c.send(1);
                    group.go(() -> {
                        Recv<Integer> r = c.tryRecv();
                        assertNotNull(r, "chan is not ready");
                        if (r.ok()) {
                            assertEquals(1, r.value());
                            ones.incrementAndGet();
                        }
                    });
                    c.close();
                    Integer v = c.recv();
                    if (v != null) {
                        assertEquals(1, v);
                        ones.incrementAndGet();
                    }
                }
                group.join();
                assertEquals(n, ones.get(), "each value received exactly once");
            });
        }
    }

    /**
     * The send-side race: a non-blocking send into a channel with room, racing a close, either
     * sends (and the value is then received before the close is seen) or fails with "send on
     * closed channel"; it never reports "full" and never loses the value.
     */
    @ParameterizedTest(name = "maxProcs={0}")
    @ValueSource(ints = {1, 2})
    void nonBlockingSendRacingCloseSendsOrPanics(int procs) {
        int n = TestSupport.stress(10_000, 1_000);
        try (GoRuntime rt = runtime(procs, "nb-send-race")) {
            run(rt, () -> {
                Chan<String> results = new Chan<>(1);
                int sent = 0;
                for (int i = 0; i < n; i++) {
                    Chan<Integer> c = new Chan<>(1);
                    rt.go(() -> {
                        String r;
                        try {
                            r = c.trySend(1) ? "sent" : "full";
                        } catch (ChannelClosedException e) {
                            r = e.getMessage();
                        }
                        results.send(r);
                    });
                    c.close();
                    String r = results.recv();
                    switch (r) {
                        case "sent" -> {
                            sent++;
                            assertEquals(new Recv<>(1, true), c.recvOk());
                        }
                        case "send on closed channel" -> { }
                        default -> fail("trySend into a channel with room answered " + r);
                    }
                    assertEquals(Recv.closed(), c.recvOk());
                }
                // Not an assertion on the scheduler's choices, just a report of both outcomes.
                System.out.println("nb-send-race p" + procs + ": " + sent + " sent, " + (n - sent) + " closed first");
            });
        }
    }

    /**
     * A non-blocking send to an unbuffered channel with a parked receiver always succeeds (the
     * lock-free "full" fast path must not miss a queued receiver), from a goroutine and from a
     * platform thread.
     */
    @ParameterizedTest(name = "maxProcs={0}")
    @ValueSource(ints = {1, 2})
    void nonBlockingSendToParkedReceiverSucceeds(int procs) {
        int n = TestSupport.stress(1_000, 100);
        try (GoRuntime rt = runtime(procs, "nb-send-parked")) {
            Group group = new Group(rt);
            for (int i = 0; i < n; i++) {
                Chan<Integer> c = new Chan<>();
                int expect = i;
                if (i % 2 == 0) {
                    G r = group.go(() -> assertEquals(expect, c.recv()));
                    awaitParked(rt, r, "chan receive");
                } else {
                    Thread t = group.thread(() -> assertEquals(expect, c.recv()));
                    ChanTestSupport.awaitParked(t);
                }
                assertTrue(c.trySend(i), "trySend with a parked receiver");
                assertFalse(c.trySend(i), "no second receiver");
                group.join();
            }
        }
    }

    /**
     * trySend/tryRecv loops from goroutines and platform threads, with a blocking receiver among
     * them, on buffered and unbuffered channels: every value that trySend reports as sent is
     * received exactly once, and nothing reported as not sent shows up.
     */
    @ParameterizedTest(name = "maxProcs={0}")
    @ValueSource(ints = {1, 2})
    void nonBlockingOperationsAccountExactly(int procs) {
        int perProducer = TestSupport.stress(50_000, 5_000);
        try (GoRuntime rt = runtime(procs, "nb-accounting")) {
            for (int cap : new int[] {0, 1, 8}) {
                Chan<Integer> c = new Chan<>(cap);
                int producers = 3;
                AtomicIntegerArray seen = new AtomicIntegerArray(producers * perProducer);
                AtomicIntegerArray sentOk = new AtomicIntegerArray(producers * perProducer);
                Group producing = new Group(rt);
                Group consuming = new Group(rt);
                // One blocking receiver goroutine, one polling goroutine, one polling platform
                // thread. The blocking one parks before the producers start, so that the first
                // trySend succeeds even on an unbuffered channel.
                G blocking = consuming.go(() -> {
                    for (Integer v : c) {
                        seen.incrementAndGet(v);
                    }
                });
                awaitParked(rt, blocking, "chan receive");
                consuming.go(() -> pollUntilClosed(c, seen, false));
                consuming.thread(() -> pollUntilClosed(c, seen, true));
                for (int p = 0; p < producers; p++) {
                    int base = p * perProducer;
                    boolean platform = p == 2;
                    TestSupport.Body producer = () -> {
                        for (int i = 0; i < perProducer; i++) {
                            if (c.trySend(base + i)) {
                                sentOk.set(base + i, 1);
                            } else if (platform) {
                                Thread.onSpinWait();
                            } else {
                                Go.gosched();
                            }
                        }
                    };
                    if (platform) {
                        producing.thread(producer);
                    } else {
                        producing.go(producer);
                    }
                }
                producing.join();
                c.close();
                consuming.join();
                int total = 0;
                for (int v = 0; v < seen.length(); v++) {
                    assertEquals(sentOk.get(v), seen.get(v), "cap " + cap + ": value " + v);
                    total += seen.get(v);
                }
                assertTrue(total > 0, "cap " + cap + ": nothing got through");
            }
        }
    }

    private static void pollUntilClosed(Chan<Integer> c, AtomicIntegerArray seen, boolean platform) {
        while (true) {
            Recv<Integer> r = c.tryRecv();
            if (r == null) {
                if (platform) {
                    Thread.onSpinWait();
                } else {
                    Go.gosched();
                }
            } else if (r.ok()) {
                seen.incrementAndGet(r.value());
            } else {
                return;
            }
        }
    }

    /**
     * Go's TestMultiConsumer: 23 workers range over a work channel (some yield to disturb the
     * FIFO-ish order) and forward to a results channel; the feeder closes the work channel, waits
     * for the workers and closes the results channel; the sum and count are exact.
     */
    @ParameterizedTest(name = "maxProcs={0}")
    @ValueSource(ints = {1, 2})
    void multiConsumer(int procs) {
        final int nwork = 23;
        final int niter = TestSupport.stress(271_828, 20_000);
        final int[] pn = {2, 3, 7, 11, 13, 17, 19, 23, 27, 31};
        try (GoRuntime rt = runtime(procs, "multi-consumer")) {
            run(rt, () -> {
                Chan<Integer> q = new Chan<>(nwork * 3);
                Chan<Integer> r = new Chan<>(nwork * 3);
                Group workers = new Group(rt);
                for (int i = 0; i < nwork; i++) {
                    int w = i;
                    TestSupport.Body worker = () -> {
                        for (int v : q) {
                            if (pn[w % pn.length] == v) {
                                Go.gosched();
                            }
                            r.send(v);
                        }
                    };
                    if (w == 0) {
                        workers.thread(worker); // one platform-thread worker in the crowd
                    } else {
                        workers.go(worker);
                    }
                }
                AtomicReference<Long> expect = new AtomicReference<>();
                Group feeder = new Group(rt);
                feeder.go(() -> {
                    long e = 0;
                    for (int i = 0; i < niter; i++) {
                        int v = pn[i % pn.length];
                        e += v;
                        q.send(v);
                    }
                    expect.set(e);
                    q.close();
                    workers.join();
                    r.close();
                });
                long n = 0;
                long s = 0;
                for (int v : r) {
                    n++;
                    s += v;
                }
                feeder.join();
                assertEquals(niter, n);
                assertEquals(expect.get(), s);
            });
        }
    }

    /**
     * Range over a channel from goroutines and platform threads at once, with senders of both
     * kinds: ends exactly when the channel is closed and drained, with every value seen once.
     */
    @ParameterizedTest(name = "maxProcs={0}")
    @ValueSource(ints = {1, 2})
    void rangeFromMixedThreadsEndsAtCloseWithEveryValueOnce(int procs) {
        int perSender = TestSupport.stress(20_000, 2_000);
        try (GoRuntime rt = runtime(procs, "range-mixed")) {
            for (int cap : new int[] {0, 3}) {
                Chan<Integer> c = new Chan<>(cap);
                int senders = 4;
                AtomicIntegerArray seen = new AtomicIntegerArray(senders * perSender);
                Group send = new Group(rt);
                Group recv = new Group(rt);
                List<Integer> perReceiver = java.util.Collections.synchronizedList(new ArrayList<>());
                for (int k = 0; k < senders; k++) {
                    int base = k * perSender;
                    TestSupport.Body b = () -> {
                        for (int i = 0; i < perSender; i++) {
                            c.send(base + i);
                        }
                    };
                    if (k == 0) {
                        send.thread(b);
                    } else {
                        send.go(b);
                    }
                }
                for (int k = 0; k < 3; k++) {
                    TestSupport.Body b = () -> {
                        int got = 0;
                        int[] lastFrom = new int[senders];
                        java.util.Arrays.fill(lastFrom, -1);
                        for (int v : c) {
                            seen.incrementAndGet(v);
                            got++;
                            // FIFO per sender: one receiver sees each sender's values in order.
                            int from = v / perSender;
                            assertTrue(v > lastFrom[from], () -> v + " after " + lastFrom[from]);
                            lastFrom[from] = v;
                        }
                        perReceiver.add(got);
                    };
                    if (k == 0) {
                        recv.thread(b);
                    } else {
                        recv.go(b);
                    }
                }
                send.join();
                c.close();
                recv.join();
                for (int v = 0; v < seen.length(); v++) {
                    assertEquals(1, seen.get(v), "cap " + cap + ": value " + v);
                }
                assertEquals(senders * perSender, perReceiver.stream().mapToInt(Integer::intValue).sum());
            }
        }
    }

    /**
     * Channel waits are not interruptible, as in Go: an interrupted platform thread (or
     * goroutine) stays parked until a value comes, receives it, and finds its interrupt status
     * set afterwards.
     */
    @ParameterizedTest(name = "maxProcs={0}")
    @ValueSource(ints = {1, 2})
    void interruptDoesNotEndAWaitButIsKept(int procs) {
        try (GoRuntime rt = runtime(procs, "chan-interrupt")) {
            Chan<Integer> c = new Chan<>();
            Group group = new Group(rt);
            TestSupport.Body receiver = () -> {
                assertEquals(5, c.recv());
                assertTrue(Thread.interrupted(), "the interrupt is re-asserted when the wait ends");
            };
            Thread t = group.thread(receiver);
            G g = group.go(receiver);
            ChanTestSupport.awaitParked(t);
            awaitParked(rt, g, "chan receive");
            t.interrupt();
            g.thread().interrupt();
            // Still parked on the channel, not returned: the park loop absorbed the interrupts.
            ChanTestSupport.awaitParked(t);
            awaitParked(rt, g, "chan receive");
            assertEquals(0, c.len());
            c.send(5);
            c.send(5);
            group.join();
        }
    }
}
