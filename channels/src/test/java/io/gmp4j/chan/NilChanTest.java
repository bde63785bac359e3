package io.gmp4j.chan;

import io.gmp4j.runtime.Scheduler;
import io.gmp4j.DeadlockError;
import io.gmp4j.GoRuntime;
import io.gmp4j.NoUncaughtExceptions;
import io.gmp4j.TestSupport;
import io.gmp4j.chan.ChanTestSupport.Group;
import io.gmp4j.runtime.G;
import java.time.Duration;
import java.util.Iterator;
import java.util.concurrent.atomic.AtomicBoolean;
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
 * Go's nil channel, {@link Chan#nil()}: a send or receive blocks forever (parked with Go's wait
 * reasons, seen by the goroutine dump and the deadlock detector), a non-blocking one never
 * proceeds, a select case on it never fires, close panics, len and cap are 0.
 */
@ExtendWith(NoUncaughtExceptions.class)
class NilChanTest {

    @Test
    void oneNilChannelForEveryElementType() {
        Chan<Integer> a = Chan.nil();
        Chan<String> b = Chan.nil();
        assertSame((Object) a, b);
        assertTrue(a.isNil());
        assertFalse(new Chan<Integer>().isNil());
        assertFalse(new Chan<Integer>(3, 0).isNil());
        assertSame(a, a.sendOnly(), "a send-only view of nil is nil");
        assertSame(a, a.recvOnly(), "a receive-only view of nil is nil");
        assertEquals(0, a.len());
        assertEquals(0, a.cap());
        assertFalse(a.isClosed());
        assertEquals("Chan[nil]", a.toString());
    }

    /** Go: {@code close(nilch)} panics "close of nil channel", every time (nil stays nil). */
    @Test
    void closeOfNilChannelPanics() {
        Chan<Integer> c = Chan.nil();
        for (int i = 0; i < 2; i++) {
            NilChannelException e = assertThrows(NilChannelException.class, c::close);
            assertEquals("close of nil channel", e.getMessage());
            assertInstanceOf(IllegalStateException.class, e, "the same kind as ChannelClosedException");
        }
        assertFalse(c.isClosed());
        assertThrows(NilChannelException.class, () -> c.sendOnly().close());
    }

    /** Non-blocking operations on nil: Go's select with a default takes the default. */
    @Test
    void nonBlockingOperationsNeverProceed() {
        Chan<Integer> c = Chan.nil();
        assertFalse(c.trySend(7));
        assertNull(c.tryRecv());
        assertThrows(NullPointerException.class, () -> c.send(null), "null is never a value, nil channel or not");
        assertThrows(NullPointerException.class, () -> c.trySend(null));

        Select s = new Select();
        s.recv(c);
        s.send(c, 7);
        assertEquals(Select.DEFAULT, s.selectNow());

        AtomicBoolean dflt = new AtomicBoolean();
        Select.selectOrDefault(() -> dflt.set(true),
                Select.onRecv(c, v -> fail("case <-nilch fired")),
                Select.onRecvOk(c, (v, ok) -> fail("case v, ok := <-nilch fired")),
                Select.onSend(c, 7, () -> fail("case nilch <- 7 fired")));
        assertTrue(dflt.get());
    }

    /**
     * In goroutines: send, receive, receive-with-ok and range over nil all park for good, each
     * with Go's wait reason, while other goroutines keep running on the same single P.
     */
    @ParameterizedTest(name = "maxProcs={0}")
    @ValueSource(ints = {1, 2})
    void blockingOperationsParkForever(int procs) {
        try (GoRuntime rt = runtime(procs, "nil-chan-block")) {
            Chan<Integer> c = Chan.nil();
            AtomicReference<Throwable> escaped = new AtomicReference<>();
            G sender = Scheduler.of(rt).go(() -> escape(escaped, () -> c.send(7)));
            G receiver = Scheduler.of(rt).go(() -> escape(escaped, c::recv));
            G receiverOk = Scheduler.of(rt).go(() -> escape(escaped, c::recvOk));
            G ranger = Scheduler.of(rt).go(() -> escape(escaped, () -> {
                for (Integer v : c) {
                    fail("range over nil yielded " + v);
                }
            }));
            G iterating = Scheduler.of(rt).go(() -> escape(escaped, () -> {
                Iterator<Integer> it = c.iterator();
                it.next();
            }));
            awaitParked(rt, sender, "chan send (nil chan)");
            awaitParked(rt, receiver, "chan receive (nil chan)");
            awaitParked(rt, receiverOk, "chan receive (nil chan)");
            awaitParked(rt, ranger, "chan receive (nil chan)");
            awaitParked(rt, iterating, "chan receive (nil chan)");

            // The parked goroutines hold no P: a ping-pong still runs, every value counted.
            int n = TestSupport.stress(20_000, 2_000);
            run(rt, () -> {
                Chan<Integer> ping = new Chan<>();
                Chan<Integer> pong = new Chan<>();
                rt.go(() -> {
                    for (Integer v : ping) {
                        pong.send(v + 1);
                    }
                });
                for (int i = 0; i < n; i++) {
                    ping.send(i);
                    assertEquals(i + 1, pong.recv());
                }
                ping.close();
            });
            // Still parked, and nothing came out of any of them.
            awaitParked(rt, sender, "chan send (nil chan)");
            awaitParked(rt, ranger, "chan receive (nil chan)");
            assertNull(escaped.get(), () -> "an operation on nil returned: " + escaped.get());
        }
    }

    private static void escape(AtomicReference<Throwable> escaped, TestSupport.Body body) {
        try {
            body.run();
            escaped.compareAndSet(null, new AssertionError("returned"));
        } catch (Throwable t) {
            escaped.compareAndSet(null, t);
        }
    }

    /** Go: a program whose main sends on a nil channel dies with "all goroutines are asleep". */
    @Test
    void mainSendingOnNilIsADeadlock() throws Exception {
        try (GoRuntime rt = runtime(2, "nil-send-main")) {
            Throwable t = TestSupport.runMain(rt, () -> Chan.<Integer>nil().send(7));
            DeadlockError e = assertInstanceOf(DeadlockError.class, t);
            assertTrue(e.getMessage().startsWith(DeadlockError.MESSAGE), e.getMessage());
            assertTrue(e.dump().contains("[chan send (nil chan)]"), e.dump());
        }
    }

    @Test
    void mainReceivingFromNilIsADeadlock() throws Exception {
        try (GoRuntime rt = runtime(1, "nil-recv-main")) {
            Throwable t = TestSupport.runMain(rt, () -> {
                Chan<Integer> done = new Chan<>();
                rt.go(() -> {
                    for (Integer v : Chan.<Integer>nil()) {
                        fail("range over nil yielded " + v);
                    }
                });
                done.recvOk(); // nobody sends: main and the ranging goroutine both wait for good
            });
            DeadlockError e = assertInstanceOf(DeadlockError.class, t);
            assertTrue(e.dump().contains("[chan receive (nil chan)]"), e.dump());
            assertTrue(e.dump().contains("[chan receive]"), e.dump());
        }
    }

    /**
     * A platform thread blocked on nil parks for good, and does not count as a thread that could
     * still wake a goroutine: a runtime's deadlock is reported while it stays parked.
     */
    @Test
    void platformThreadParksForeverAndDoesNotHoldOffDeadlockDetection() throws Exception {
        Chan<Integer> c = Chan.nil();
        AtomicReference<Throwable> escaped = new AtomicReference<>();
        Thread sender = Thread.ofPlatform().daemon().name("nil-send-platform").start(() -> escape(escaped, () -> c.send(1)));
        Thread receiver = Thread.ofPlatform().daemon().name("nil-recv-platform").start(() -> escape(escaped, c::recv));
        Thread selector = Thread.ofPlatform().daemon().name("nil-select-platform").start(() -> escape(escaped, () -> {
            Select s = new Select();
            s.recv(c);
            s.send(c, 1);
            s.select();
        }));
        awaitParked(sender);
        awaitParked(receiver);
        awaitParked(selector);
        try (GoRuntime rt = runtime(1, "nil-platform-deadlock")) {
            Throwable t = TestSupport.runMain(rt, () -> Chan.<Integer>nil().recv());
            DeadlockError e = assertInstanceOf(DeadlockError.class, t);
            assertTrue(e.dump().contains("[chan receive (nil chan)]"), e.dump());
        }
        // Interrupts do not end a wait that nothing can end (gmp4j waits are not interruptible).
        sender.interrupt();
        awaitParked(sender);
        assertTrue(sender.isAlive() && receiver.isAlive() && selector.isAlive());
        assertNull(escaped.get(), () -> "an operation on nil returned: " + escaped.get());
    }

    /**
     * Cases on nil never fire, not even against each other: a select sending on nil and one
     * receiving from nil both stay parked (in a select of nil cases only: Go's reason "select").
     */
    @ParameterizedTest(name = "maxProcs={0}")
    @ValueSource(ints = {1, 2})
    void nilCasesNeverPairWithEachOther(int procs) {
        try (GoRuntime rt = runtime(procs, "nil-select-pair")) {
            Chan<Integer> c = Chan.nil();
            AtomicReference<Throwable> escaped = new AtomicReference<>();
            G sendSel = Scheduler.of(rt).go(() -> escape(escaped, () -> {
                Select s = new Select();
                s.send(c, 1);
                s.select();
            }));
            G recvSel = Scheduler.of(rt).go(() -> escape(escaped, () -> Select.select(Select.onRecv(c, v -> fail("received " + v)))));
            G plainSend = Scheduler.of(rt).go(() -> escape(escaped, () -> c.send(2)));
            awaitParked(rt, sendSel, "select");
            awaitParked(rt, recvSel, "select");
            awaitParked(rt, plainSend, "chan send (nil chan)");
            // A receive from nil that a plain sender or a select case could feed does not exist.
            assertNull(c.tryRecv());
            assertFalse(c.trySend(3));
            assertNull(escaped.get(), () -> "a nil case fired: " + escaped.get());
        }
    }

    /** Mixed with ready channels and a timeout, nil cases are skipped; only-nil with a timeout times out. */
    @ParameterizedTest(name = "maxProcs={0}")
    @ValueSource(ints = {1, 2})
    void nilCasesAreSkippedAmongOthers(int procs) {
        try (GoRuntime rt = runtime(procs, "nil-select-mixed")) {
            run(rt, () -> {
                Chan<Integer> nil = Chan.nil();
                Chan<Integer> ready = new Chan<>(1);
                Select s = new Select();
                for (int i = 0; i < 1000; i++) {
                    ready.send(i);
                    s.reset();
                    s.recv(nil);
                    s.send(nil, 1);
                    int r = s.recv(ready);
                    s.recv(nil);
                    assertEquals(r, s.select());
                    assertEquals(i, (int) s.value());
                    assertTrue(s.ok());
                }
                s.reset();
                s.recv(nil);
                s.send(nil, 1);
                int t = s.timeout(Duration.ofMillis(1));
                assertEquals(t, s.select());
                AtomicBoolean timedOut = new AtomicBoolean();
                Select.select(Select.onRecv(nil, v -> fail("nil fired")), Select.onTimeout(Duration.ofMillis(1), () -> timedOut.set(true)));
                assertTrue(timedOut.get());
            });
        }
    }

    /**
     * Go's idiom: a loop that receives from two channels until both are closed sets each to nil
     * once it is closed, so that its case stops firing. Every value arrives once.
     */
    @ParameterizedTest(name = "maxProcs={0}")
    @ValueSource(ints = {1, 2})
    void settingAChannelToNilDisablesItsCase(int procs) {
        int n = TestSupport.stress(20_000, 2_000);
        try (GoRuntime rt = runtime(procs, "nil-disable")) {
            for (boolean statementForm : new boolean[] {false, true}) {
                Chan<Integer> a = new Chan<>(4);
                Chan<Integer> b = new Chan<>();
                Group group = new Group(rt);
                group.go(() -> {
                    for (int i = 0; i < n; i++) {
                        a.send(2 * i);
                    }
                    a.close();
                });
                group.go(() -> {
                    for (int i = 0; i < n; i++) {
                        b.send(2 * i + 1);
                    }
                    b.close();
                });
                group.go(() -> {
                    boolean[] seen = new boolean[2 * n];
                    @SuppressWarnings("unchecked")
                    Chan<Integer>[] in = new Chan[] {a, b};
                    Select s = new Select();
                    int got = 0;
                    while (!in[0].isNil() || !in[1].isNil()) {
                        int[] fired = {-1};
                        Integer[] value = {null};
                        if (statementForm) {
                            Select.select(
                                    Select.onRecvOk(in[0], (v, ok) -> { fired[0] = ok ? 0 : 2; value[0] = v; }),
                                    Select.onRecvOk(in[1], (v, ok) -> { fired[0] = ok ? 1 : 3; value[0] = v; }));
                        } else {
                            s.reset();
                            int k = s.recv(in[0]);
                            s.recv(in[1]);
                            int r = s.select();
                            fired[0] = (r - k) + (s.ok() ? 0 : 2);
                            value[0] = s.value();
                        }
                        if (fired[0] >= 2) {
                            assertNull(value[0]);
                            in[fired[0] - 2] = Chan.nil(); // c = nil
                        } else {
                            int v = value[0];
                            assertEquals(fired[0], v % 2, "a value of the channel whose case fired");
                            assertFalse(seen[v], () -> "duplicate " + v);
                            seen[v] = true;
                            got++;
                        }
                    }
                    assertEquals(2 * n, got);
                });
                group.join();
            }
        }
    }
}
