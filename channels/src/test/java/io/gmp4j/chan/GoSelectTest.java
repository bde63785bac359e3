package io.gmp4j.chan;

import io.gmp4j.runtime.Scheduler;
import io.gmp4j.DeadlockError;
import io.gmp4j.Go;
import io.gmp4j.GoRuntime;
import io.gmp4j.NoUncaughtExceptions;
import io.gmp4j.TestSupport;
import io.gmp4j.chan.ChanTestSupport.Group;
import io.gmp4j.runtime.G;
import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicIntegerArray;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static io.gmp4j.chan.ChanTestSupport.awaitParked;
import static io.gmp4j.chan.ChanTestSupport.run;
import static io.gmp4j.chan.ChanTestSupport.runtime;
import static org.junit.jupiter.api.Assertions.*;

/**
 * Go's select, as {@code runtime/chan_test.go} and the spec define it: a select acts on one
 * moment's state of its channels (a non-blocking select with a ready case never takes default),
 * never pairs with itself, survives chaotic mixes of plain operations and selects with exact
 * counts, chooses uniformly among ready cases, may name one channel in several cases, ignores
 * null channels, fires a receive on a closed channel with ok=false, fails a send on a closed
 * channel, and blocks forever with no cases. GOMAXPROCS 1 and 2; platform threads mixed in.
 */
@ExtendWith(NoUncaughtExceptions.class)
class GoSelectTest {

    /**
     * Go's TestNonblockSelectRace (and, with {@code closeSecond}, TestNonblockSelectRace2): from
     * the moment the goroutine starts, c1 or c2 is always ready, so its non-blocking select must
     * never take the default case.
     */
    @ParameterizedTest(name = "maxProcs={0}, closeSecond={1}")
    @org.junit.jupiter.params.provider.CsvSource({"1,false", "2,false", "1,true", "2,true"})
    void nonBlockingSelectSeesOneMoment(int procs, boolean closeSecond) {
        int n = TestSupport.stress(100_000, 5_000);
        try (GoRuntime rt = runtime(procs, "nb-select-race")) {
            run(rt, () -> {
                Chan<Boolean> done = new Chan<>(1);
                Select main = new Select();
                for (int i = 0; i < n; i++) {
                    Chan<Integer> c1 = new Chan<>(1);
                    Chan<Integer> c2 = closeSecond ? new Chan<>() : new Chan<>(1);
                    c1.send(1);
                    rt.go(() -> {
                        Select s = new Select();
                        s.recv(c1);
                        s.recv(c2);
                        done.send(s.selectNow() != Select.DEFAULT);
                    });
                    if (closeSecond) {
                        c2.close();
                    } else {
                        c2.send(1);
                    }
                    main.reset();
                    main.recv(c1);
                    main.selectNow();
                    assertTrue(done.recv(), "no chan is ready");
                }
            });
        }
    }

    /**
     * Go's TestSelfSelect: two parties select on sending and receiving on the same channel; a
     * select never pairs with itself on an unbuffered channel and nothing deadlocks. Counts are
     * exact: what was sent is what was received plus what is still buffered.
     */
    @ParameterizedTest(name = "maxProcs={0}, platformPeer={1}")
    @org.junit.jupiter.params.provider.CsvSource({"1,false", "2,false", "2,true"})
    void selfSelectNeverPairsWithItself(int procs, boolean platformPeer) {
        int iters = TestSupport.stress(10_000, 1_000);
        try (GoRuntime rt = runtime(procs, "self-select")) {
            for (int cap : new int[] {0, 10}) {
                Chan<Integer> c = new Chan<>(cap);
                AtomicIntegerArray sends = new AtomicIntegerArray(2);
                AtomicIntegerArray recvs = new AtomicIntegerArray(2);
                Group group = new Group(rt);
                for (int p = 0; p < 2; p++) {
                    int me = p;
                    TestSupport.Body body = () -> {
                        Select s = new Select();
                        for (int i = 0; i < iters; i++) {
                            s.reset();
                            int sendCase;
                            int recvCase;
                            if (me == 0 || i % 2 == 0) {
                                sendCase = s.send(c, me);
                                recvCase = s.recv(c);
                            } else {
                                recvCase = s.recv(c);
                                sendCase = s.send(c, me);
                            }
                            int fired = s.select();
                            if (fired == sendCase) {
                                sends.incrementAndGet(me);
                            } else {
                                assertEquals(recvCase, fired);
                                assertTrue(s.ok());
                                int v = s.value();
                                if (cap == 0) {
                                    assertEquals(1 - me, v, "self receive");
                                }
                                recvs.incrementAndGet(me);
                            }
                        }
                    };
                    if (platformPeer && p == 1) {
                        group.thread(body);
                    } else {
                        group.go(body);
                    }
                }
                group.join();
                assertEquals(2 * iters, sends.get(0) + sends.get(1) + recvs.get(0) + recvs.get(1));
                assertEquals(sends.get(0) + sends.get(1), recvs.get(0) + recvs.get(1) + c.len(), "cap " + cap);
                if (cap == 0) {
                    assertEquals(sends.get(0), recvs.get(1));
                    assertEquals(sends.get(1), recvs.get(0));
                }
            }
        }
    }

    /**
     * Go's TestSelectStress: 4 channels (2 unbuffered, buffers of 2 and 3); per channel a plain
     * sender and a plain receiver of N values; one select sending N on each channel and one
     * select receiving N from each, dropping a channel (setting it to null) once its N are done.
     * Nothing deadlocks, every receiver gets values of its own channel, counts are exact.
     */
    @ParameterizedTest(name = "maxProcs={0}")
    @ValueSource(ints = {1, 2})
    void selectStress(int procs) {
        int n = TestSupport.stress(100_000, 5_000);
        try (GoRuntime rt = runtime(procs, "select-stress")) {
            @SuppressWarnings("unchecked")
            Chan<Integer>[] c = new Chan[] {new Chan<Integer>(), new Chan<Integer>(), new Chan<Integer>(2), new Chan<Integer>(3)};
            AtomicIntegerArray received = new AtomicIntegerArray(4);
            Group group = new Group(rt);
            for (int k = 0; k < 4; k++) {
                int kk = k;
                group.go(() -> {
                    for (int i = 0; i < n; i++) {
                        c[kk].send(kk);
                    }
                });
                TestSupport.Body receiver = () -> {
                    for (int i = 0; i < n; i++) {
                        assertEquals(kk, c[kk].recv());
                        received.incrementAndGet(kk);
                    }
                };
                if (k == 1) {
                    group.thread(receiver); // a platform thread among the goroutines
                } else {
                    group.go(receiver);
                }
            }
            group.go(() -> {
                int[] cnt = new int[4];
                Chan<Integer>[] c1 = c.clone();
                Select s = new Select();
                int[] caseChan = new int[4];
                for (int i = 0; i < 4 * n; i++) {
                    s.reset();
                    for (int k : new int[] {3, 2, 0, 1}) {
                        caseChan[s.send(c1[k], k)] = k;
                    }
                    int k = caseChan[s.select()];
                    if (++cnt[k] == n) {
                        c1[k] = null;
                    }
                }
                assertArrayEquals(new int[] {n, n, n, n}, cnt);
            });
            group.go(() -> {
                int[] cnt = new int[4];
                Chan<Integer>[] c1 = c.clone();
                Select s = new Select();
                for (int i = 0; i < 4 * n; i++) {
                    s.reset();
                    for (int k = 0; k < 4; k++) {
                        s.recv(c1[k]);
                    }
                    int k = s.select();
                    assertTrue(s.ok());
                    assertEquals(k, (int) s.value(), "a value of its own channel");
                    if (++cnt[k] == n) {
                        c1[k] = null;
                    }
                }
                assertArrayEquals(new int[] {n, n, n, n}, cnt);
            });
            group.join();
            for (int k = 0; k < 4; k++) {
                assertEquals(n, received.get(k));
                assertNull(c[k].tryRecv(), "nothing left over");
            }
        }
    }

    /**
     * Go's TestSelectFairness: with two ready channels (and two never-ready ones) a select picks
     * each about half the time. The bound is 10 standard deviations of a fair coin, so a fair
     * select fails it with probability below 1e-20, while a select that favours a case by even
     * 55:45 fails it every time.
     */
    @ParameterizedTest(name = "maxProcs={0}")
    @ValueSource(ints = {1, 2})
    void selectChoosesUniformlyAmongReadyCases(int procs) {
        final int trials = 10_000;
        try (GoRuntime rt = runtime(procs, "select-fairness")) {
            run(rt, () -> {
                Chan<Integer> c1 = new Chan<>(trials + 1);
                Chan<Integer> c2 = new Chan<>(trials + 1);
                for (int i = 0; i < trials + 1; i++) {
                    c1.send(1);
                    c2.send(2);
                }
                Chan<Integer> c3 = new Chan<>();
                Chan<Integer> c4 = new Chan<>();
                Chan<Integer> out = new Chan<>();
                Chan<Integer> done = new Chan<>();
                Group group = new Group(rt);
                group.go(() -> {
                    Select s = new Select();
                    Select fwd = new Select();
                    while (true) {
                        s.reset();
                        s.recv(c3);
                        s.recv(c4);
                        s.recv(c1);
                        s.recv(c2);
                        s.select();
                        int b = s.value();
                        fwd.reset();
                        fwd.send(out, b);
                        int quit = fwd.recv(done);
                        if (fwd.select() == quit) {
                            return;
                        }
                    }
                });
                int cnt1 = 0;
                int cnt2 = 0;
                for (int i = 0; i < trials; i++) {
                    int b = out.recv();
                    switch (b) {
                        case 1 -> cnt1++;
                        case 2 -> cnt2++;
                        default -> fail("unexpected value " + b);
                    }
                }
                done.close();
                group.join();
                double bound = 10 * 0.5 * Math.sqrt(trials);
                int c1n = cnt1;
                int c2n = cnt2;
                assertTrue(Math.abs(cnt1 - trials / 2.0) <= bound,
                        () -> "unfair select: in " + trials + " trials, results were " + c1n + ", " + c2n);
                // Exactly what was taken is gone: the trials forwarded, plus the one value the
                // forwarder received before it saw done closed.
                assertEquals(trials + 1, c1.len() + c2.len());
            });
        }
    }

    /** Fairness of the non-blocking form, and across a receive and a send case. */
    @Test
    void selectNowChoosesUniformlyAcrossKinds() {
        final int trials = 10_000;
        Chan<Integer> in = new Chan<>(trials);
        Chan<Integer> outc = new Chan<>(trials);
        for (int i = 0; i < trials; i++) {
            in.send(i);
        }
        Select s = new Select();
        int recvs = 0;
        int sends = 0;
        for (int i = 0; i < trials; i++) {
            s.reset();
            int r = s.recv(in);
            int w = s.send(outc, i);
            int fired = s.selectNow();
            if (fired == r) {
                assertEquals(recvs, (int) s.value(), "FIFO");
                recvs++;
            } else {
                assertEquals(w, fired);
                sends++;
            }
        }
        double bound = 10 * 0.5 * Math.sqrt(trials);
        int rr = recvs;
        assertTrue(Math.abs(recvs - trials / 2.0) <= bound, () -> "unfair: " + rr + " receives of " + trials);
        assertEquals(trials - recvs, in.len());
        assertEquals(sends, outc.len());
    }

    /**
     * Go's TestPseudoRandomSend: a select with two send cases on one channel, to a receiver
     * that yields before each receive, sends both values often (more than a tenth each).
     */
    @ParameterizedTest(name = "maxProcs={0}")
    @ValueSource(ints = {1, 2})
    void pseudoRandomSend(int procs) {
        final int n = 1000;
        try (GoRuntime rt = runtime(procs, "pseudo-random-send")) {
            run(rt, () -> {
                for (int cap : new int[] {0, n}) {
                    Chan<Integer> c = new Chan<>(cap);
                    int[] l = new int[n];
                    Group group = new Group(rt);
                    group.go(() -> {
                        for (int i = 0; i < n; i++) {
                            Go.gosched();
                            l[i] = c.recv();
                        }
                    });
                    Select s = new Select();
                    for (int i = 0; i < n; i++) {
                        s.reset();
                        s.send(c, 1);
                        s.send(c, 0);
                        s.select();
                    }
                    group.join();
                    int n1 = 0;
                    for (int v : l) {
                        n1 += v;
                    }
                    int n0 = n - n1;
                    int fn1 = n1;
                    assertTrue(n0 > n / 10 && n1 > n / 10,
                            () -> "want pseudorandom, got " + (n - fn1) + " zeros and " + fn1 + " ones (cap " + cap + ")");
                }
            });
        }
    }

    /**
     * Go's TestSelectDuplicateChannel: a select queued twice on one channel, woken through a
     * third, takes both of its entries off that channel's queue, so that a later send still
     * reaches the goroutine queued behind it. (Go sleeps to order the goroutines; this waits
     * until each is parked.)
     */
    @ParameterizedTest(name = "maxProcs={0}")
    @ValueSource(ints = {1, 2})
    void selectDuplicateChannel(int procs) {
        try (GoRuntime rt = runtime(procs, "select-dup")) {
            Chan<Integer> c = new Chan<>();
            Chan<Integer> d = new Chan<>();
            Chan<Integer> e = new Chan<>();
            Group group = new Group(rt);
            AtomicInteger fired = new AtomicInteger(-1);
            G a = group.go(() -> {
                Select s = new Select();
                s.recv(c);
                s.recv(c);
                s.recv(d);
                fired.set(s.select());
                assertEquals(7, (int) s.value());
                e.send(9);
            });
            awaitParked(rt, a, "select");
            AtomicReference<Integer> bGot = new AtomicReference<>();
            G b = group.go(() -> bGot.set(c.recv()));
            awaitParked(rt, b, "chan receive");
            d.send(7); // wakes A, which dequeues itself from c twice
            assertEquals(9, e.recv());
            assertEquals(2, fired.get());
            c.send(8); // must reach B, not A's stale entries
            group.join();
            assertEquals(8, bGot.get());
            assertNull(c.tryRecv());
        }
    }

    /** Several cases on one channel: exactly one fires per select, and each value is taken once. */
    @Test
    void sameChannelInSeveralCasesFiresOnce() {
        Chan<Integer> c = new Chan<>(4);
        c.send(1);
        Select s = new Select();
        s.recv(c);
        s.recv(c);
        s.recv(c);
        int fired = s.selectNow();
        assertTrue(fired >= 0 && fired < 3);
        assertEquals(1, (int) s.value());
        assertEquals(Select.DEFAULT, s.selectNow(), "the one value was taken once");
        s.reset();
        s.send(c, 10);
        s.send(c, 20);
        s.send(c, 30);
        int sent = s.selectNow();
        assertEquals(1, c.len(), "one send per select");
        assertEquals(10 * (sent + 1), (int) c.recv());
        // The same channel as a send and a receive case: buffered, one of them fires.
        c.send(5);
        s.reset();
        int w = s.send(c, 6);
        int r = s.recv(c);
        int f = s.selectNow();
        if (f == r) {
            assertEquals(5, (int) s.value());
            assertEquals(0, c.len());
        } else {
            assertEquals(w, f);
            assertEquals(2, c.len());
        }
    }

    /** A case on a null channel never fires; with nothing else, select blocks until its timeout. */
    @ParameterizedTest(name = "maxProcs={0}")
    @ValueSource(ints = {1, 2})
    void nullChannelNeverFires(int procs) {
        try (GoRuntime rt = runtime(procs, "select-null")) {
            run(rt, () -> {
                Chan<Integer> ready = new Chan<>(1);
                Select s = new Select();
                for (int i = 0; i < 1000; i++) {
                    ready.send(i);
                    s.reset();
                    s.recv(null);
                    s.send(null, 1);
                    int r = s.recv(ready);
                    s.recv(null);
                    assertEquals(r, s.select());
                    assertEquals(i, (int) s.value());
                }
                s.reset();
                s.recv(null);
                s.send(null, 1);
                assertEquals(Select.DEFAULT, s.selectNow());
                int t = s.timeout(Duration.ofMillis(1));
                assertEquals(t, s.select());
            });
        }
    }

    /**
     * A receive case on a closed channel fires with ok=false (after the buffer is drained),
     * both when it is closed before the select and when it is closed while the select waits.
     */
    @ParameterizedTest(name = "maxProcs={0}")
    @ValueSource(ints = {1, 2})
    void receiveCaseOnClosedChannelFiresWithOkFalse(int procs) {
        try (GoRuntime rt = runtime(procs, "select-closed")) {
            Chan<Integer> never = new Chan<>();
            Chan<Integer> c = new Chan<>(2);
            c.send(1);
            c.send(2);
            c.close();
            Select s = new Select();
            for (int expect : new int[] {1, 2}) {
                s.reset();
                s.recv(never);
                int r = s.recv(c);
                assertEquals(r, s.select());
                assertTrue(s.ok());
                assertEquals(expect, (int) s.value());
            }
            for (int i = 0; i < 3; i++) {
                s.reset();
                s.recv(never);
                int r = s.recv(c);
                assertEquals(r, s.selectNow());
                assertFalse(s.ok());
                assertNull(s.value());
            }
            // Closed while parked: a goroutine and a platform thread both wake with ok=false.
            Chan<Integer> later = new Chan<>();
            Group group = new Group(rt);
            TestSupport.Body waiter = () -> {
                Select w = new Select();
                w.recv(never);
                int r = w.recv(later);
                w.timeout(Duration.ofSeconds(TestSupport.TIMEOUT_S));
                assertEquals(r, w.select());
                assertFalse(w.ok());
                assertNull(w.value());
            };
            G g = group.go(waiter);
            Thread t = group.thread(waiter);
            awaitParked(rt, g, "select");
            ChanTestSupport.awaitParked(t);
            later.close();
            group.join();
        }
    }

    /**
     * A send case on a closed channel fails with "send on closed channel": chosen at once, and
     * when the channel is closed while the select waits.
     */
    @ParameterizedTest(name = "maxProcs={0}")
    @ValueSource(ints = {1, 2})
    void sendCaseOnClosedChannelFails(int procs) {
        try (GoRuntime rt = runtime(procs, "select-send-closed")) {
            Chan<Integer> c = new Chan<>(1);
            c.close();
            Select s = new Select();
            s.send(c, 1);
            s.recv(null);
            assertEquals("send on closed channel", assertThrows(ChannelClosedException.class, s::select).getMessage());
            assertEquals("send on closed channel", assertThrows(ChannelClosedException.class, s::selectNow).getMessage());

            Chan<Integer> later = new Chan<>();
            Chan<Integer> never = new Chan<>();
            Group group = new Group(rt);
            TestSupport.Body sender = () -> {
                Select w = new Select();
                w.send(later, 1);
                w.recv(never);
                ChannelClosedException e = assertThrows(ChannelClosedException.class, w::select);
                assertEquals("send on closed channel", e.getMessage());
            };
            G g = group.go(sender);
            Thread t = group.thread(sender);
            awaitParked(rt, g, "select");
            ChanTestSupport.awaitParked(t);
            later.close();
            group.join();
            // The failed selects left nothing queued behind: never is still usable.
            G r = group.go(() -> assertEquals(3, never.recv()));
            awaitParked(rt, r, "chan receive");
            assertTrue(never.trySend(3));
            group.join();
        }
    }

    /**
     * Go's {@code select {}}: a select with no cases blocks forever. In a runtime's main
     * goroutine with nothing else to run it is reported as Go reports it, "all goroutines are
     * asleep - deadlock!", with the goroutine parked on "select (no cases)" in the dump.
     */
    @Test
    void emptySelectBlocksForever() throws Exception {
        try (GoRuntime rt = runtime(1, "empty-select")) {
            // In a goroutine: parked for good (shown by its state and the dump); the runtime is
            // closed with it still parked.
            G g = Scheduler.of(rt).go(() -> {
                new Select().select();
                fail("select {} returned");
            });
            awaitParked(rt, g, "select (no cases)");
        }
        try (GoRuntime rt = runtime(1, "empty-select-main")) {
            AtomicReference<Throwable> thrown = new AtomicReference<>();
            Thread mainCaller = Thread.ofPlatform().daemon().start(() -> {
                try {
                    rt.main(() -> new Select().select());
                } catch (Throwable t) {
                    thrown.set(t);
                }
            });
            mainCaller.join(TestSupport.TIMEOUT_S * 1000);
            assertFalse(mainCaller.isAlive(), () -> "select {} in main was not reported as a deadlock:\n" + rt.dump());
            DeadlockError e = assertInstanceOf(DeadlockError.class, thrown.get());
            assertTrue(e.getMessage().startsWith(DeadlockError.MESSAGE), e.getMessage());
            assertTrue(e.dump().contains("[select (no cases)]"), e.dump());
        }
    }

    /**
     * A timeout racing a sender: when the timeout wins, the sender's value is not lost (it goes
     * to the next select); when the value wins, the timeout does not fire as well. Counted
     * exactly, with the select on a goroutine and on a platform thread.
     */
    @ParameterizedTest(name = "maxProcs={0}")
    @ValueSource(ints = {1, 2})
    void timeoutRacingSenderLosesNoValue(int procs) {
        int n = TestSupport.stress(20_000, 2_000);
        try (GoRuntime rt = runtime(procs, "select-timeout-race")) {
            for (boolean platformSelector : new boolean[] {false, true}) {
                Chan<Integer> c = new Chan<>();
                Group group = new Group(rt);
                group.go(() -> {
                    for (int i = 0; i < n; i++) {
                        c.send(i);
                    }
                    c.close();
                });
                AtomicInteger timeouts = new AtomicInteger();
                TestSupport.Body selector = () -> {
                    Select s = new Select();
                    int expect = 0;
                    while (true) {
                        s.reset();
                        int r = s.recv(c);
                        // Zero (fires only if nothing is ready) or up to 30 us, around the
                        // time a sender takes to come back, so that wake-ups race the timer.
                        int t = s.timeout(Duration.ofNanos(expect % 3 == 0 ? 0 : ThreadLocalRandom.current().nextInt(30_000)));
                        int fired = s.select();
                        if (fired == t) {
                            timeouts.incrementAndGet();
                            // Let the sender run: on one P a loop of zero timeouts would
                            // otherwise only give way when sysmon preempts it.
                            if (G.current() != null) {
                                Go.gosched();
                            } else {
                                Thread.yield();
                            }
                            continue;
                        }
                        assertEquals(r, fired);
                        if (!s.ok()) {
                            break;
                        }
                        assertEquals(expect++, (int) s.value(), "no value lost or duplicated");
                    }
                    assertEquals(n, expect);
                };
                if (platformSelector) {
                    group.thread(selector);
                } else {
                    group.go(selector);
                }
                group.join();
                assertNoWaiters(c);
                System.out.println("timeout race p" + procs + (platformSelector ? " platform" : " goroutine")
                        + ": " + timeouts.get() + " timeouts for " + n + " values");
            }
        }
    }

    /** Every select has taken its entries off every queue once it returned. */
    private static void assertNoWaiters(Chan<?>... chans) {
        for (Chan<?> c : chans) {
            c.lock();
            try {
                assertTrue(c.recvq.isEmpty(), () -> c + ": a receiver entry was left queued");
                assertTrue(c.sendq.isEmpty(), () -> c + ": a sender entry was left queued");
            } finally {
                c.unlock();
            }
        }
    }

    /**
     * Many selects (goroutines and platform threads) wait on a shared channel and one of their
     * own; closing the shared one wakes every one of them exactly once, with ok=false on the
     * shared case, and each takes its other entries off the other channels' queues: nothing
     * stays queued, and a later send on an own channel waits for a new receiver.
     */
    @ParameterizedTest(name = "maxProcs={0}")
    @ValueSource(ints = {1, 2})
    void closeWakesEverySelectOnceAndLeavesNoEntries(int procs) {
        int goroutines = 50;
        int threads = 4;
        try (GoRuntime rt = runtime(procs, "select-close-all")) {
            Chan<Integer> shared = new Chan<>();
            Chan<Integer> sharedSend = new Chan<>(); // nobody receives: the send case never fires
            @SuppressWarnings("unchecked")
            Chan<Integer>[] own = new Chan[goroutines + threads];
            AtomicInteger woken = new AtomicInteger();
            Group group = new Group(rt);
            java.util.List<G> gs = new java.util.ArrayList<>();
            java.util.List<Thread> ts = new java.util.ArrayList<>();
            for (int i = 0; i < own.length; i++) {
                own[i] = new Chan<>();
                Chan<Integer> mine = own[i];
                int me = i;
                TestSupport.Body body = () -> {
                    Select s = new Select();
                    s.recv(mine);
                    int sh = s.recv(shared);
                    s.send(sharedSend, me);
                    s.recv(shared); // the same channel twice
                    int fired = s.select();
                    assertTrue(fired == sh || fired == 3, "fired " + fired);
                    assertFalse(s.ok());
                    assertNull(s.value());
                    woken.incrementAndGet();
                };
                if (i < goroutines) {
                    gs.add(group.go(body));
                } else {
                    ts.add(group.thread(body));
                }
            }
            for (G g : gs) {
                awaitParked(rt, g, "select");
            }
            for (Thread t : ts) {
                ChanTestSupport.awaitParked(t);
            }
            shared.close();
            group.join();
            assertEquals(own.length, woken.get());
            assertNoWaiters(own);
            assertNoWaiters(shared, sharedSend);
            for (Chan<Integer> c : own) {
                assertFalse(c.trySend(1), "a stale select entry took a value");
            }
        }
    }
}
