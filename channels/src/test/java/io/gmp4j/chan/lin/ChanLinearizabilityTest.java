package io.gmp4j.chan.lin;

import io.gmp4j.GoRuntime;
import io.gmp4j.NoUncaughtExceptions;
import io.gmp4j.TestSupport;
import io.gmp4j.chan.Chan;
import io.gmp4j.chan.ChannelClosedException;
import io.gmp4j.chan.Recv;
import io.gmp4j.chan.lin.History.Kind;
import io.gmp4j.chan.lin.History.Op;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Linearizability of every channel operation, blocking ones included (what Lincheck cannot
 * express, see {@link ChanLincheckTest}): small random histories (3 workers x 4 operations
 * among send, recv, trySend, tryRecv and close, plus one close that ends every wait) are
 * recorded on goroutines and platform threads and each must have a legal sequential order
 * under {@link ChanModel}. The checker itself is shown to reject illegal histories, hand-made
 * and produced by deliberately broken channels.
 */
@ExtendWith(NoUncaughtExceptions.class)
class ChanLinearizabilityTest {
    private static final int WORKERS = 3;
    private static final int OPS_PER_WORKER = 4;

    /** The operations under test, so that broken channels can go through the same harness. */
    interface ChanOps {
        void send(int v);

        /** The value, or null once closed and drained. */
        Integer recv();

        boolean trySend(int v);

        /** null if it would block; else the value, or {@code Recv.closed()}. */
        Recv<Integer> tryRecv();

        void close();
    }

    private static ChanOps real(int cap) {
        Chan<Integer> c = new Chan<>(cap);
        return new ChanOps() {
            public void send(int v) {
                c.send(v);
            }

            public Integer recv() {
                return c.recv();
            }

            public boolean trySend(int v) {
                return c.trySend(v);
            }

            public Recv<Integer> tryRecv() {
                return c.tryRecv();
            }

            public void close() {
                c.close();
            }
        };
    }

    @ParameterizedTest(name = "maxProcs={0}, cap={1}")
    @CsvSource({"1,0", "1,1", "1,2", "2,0", "2,1", "2,2"})
    void everyHistoryIsLinearizable(int procs, int cap) {
        int iterations = TestSupport.stress(5_000, 400);
        SplittableRandom rnd = new SplittableRandom();
        try (GoRuntime rt = GoRuntime.builder().maxProcs(procs).name("lin-p" + procs).build()) {
            for (int it = 0; it < iterations; it++) {
                // Every third history has a platform thread among the goroutines.
                History h = record(rt, real(cap), rnd.split(), it % 3 == 0 ? 1 : 0);
                List<String> witness = LinearizabilityChecker.linearize(h, cap);
                assertNotNull(witness, () -> "not linearizable for cap " + cap + ":\n" + h);
            }
        }
    }

    /**
     * Runs one random history: {@code WORKERS} workers, {@code platform} of them platform
     * threads and the rest goroutines of {@code rt}, released together, and a closer that closes
     * the channel after a random spin, so that no blocked operation waits forever.
     */
    static History record(GoRuntime rt, ChanOps ch, SplittableRandom rnd, int platform) {
        History h = new History();
        Chan<Boolean> start = new Chan<>();
        CountDownLatch done = new CountDownLatch(WORKERS + 1);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        int value = 1;
        for (int w = 0; w < WORKERS; w++) {
            List<int[]> script = new ArrayList<>();
            for (int k = 0; k < OPS_PER_WORKER; k++) {
                int roll = rnd.nextInt(20);
                Kind kind = roll < 5 ? Kind.SEND : roll < 10 ? Kind.RECV : roll < 14 ? Kind.TRY_SEND
                        : roll < 19 ? Kind.TRY_RECV : Kind.CLOSE;
                script.add(new int[] {kind.ordinal(), value++, rnd.nextInt(200)});
            }
            int thread = w;
            Runnable body = () -> {
                try {
                    start.recv();
                    for (int[] step : script) {
                        spin(step[2]);
                        perform(h, ch, thread, Kind.values()[step[0]], step[1]);
                    }
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                } finally {
                    done.countDown();
                }
            };
            if (w < platform) {
                Thread.ofPlatform().daemon().start(body);
            } else {
                rt.go(body);
            }
        }
        int closerSpin = rnd.nextInt(3_000);
        rt.go(() -> {
            try {
                start.recv();
                spin(closerSpin);
                perform(h, ch, WORKERS, Kind.CLOSE, 0);
            } catch (Throwable t) {
                failure.compareAndSet(null, t);
            } finally {
                done.countDown();
            }
        });
        start.close();
        TestSupport.await(done, () -> "history did not finish:\n" + h + rt.dump());
        if (failure.get() != null) {
            throw new AssertionError("a worker failed", failure.get());
        }
        return h;
    }

    private static void spin(int n) {
        for (int i = 0; i < n; i++) {
            Thread.onSpinWait();
        }
    }

    private static void perform(History h, ChanOps ch, int thread, Kind kind, int v) {
        long inv = h.tick();
        String r;
        try {
            r = switch (kind) {
                case SEND -> {
                    ch.send(v);
                    yield History.OK;
                }
                case TRY_SEND -> ch.trySend(v) ? History.OK : History.FULL;
                case RECV -> {
                    Integer got = ch.recv();
                    yield got == null ? History.CLOSED : got.toString();
                }
                case TRY_RECV -> {
                    Recv<Integer> got = ch.tryRecv();
                    yield got == null ? History.EMPTY : got.ok() ? got.value().toString() : History.CLOSED;
                }
                case CLOSE -> {
                    ch.close();
                    yield History.OK;
                }
            };
        } catch (ChannelClosedException e) {
            r = History.PANIC;
        }
        long resp = h.tick();
        h.add(new Op(thread, kind, v, r, inv, resp));
    }

    // =====================================================================================
    // The checker rejects what it must
    // =====================================================================================

    private static History history(Op... ops) {
        History h = new History();
        for (Op op : ops) {
            h.add(op);
        }
        return h;
    }

    private static Op op(int thread, Kind kind, int arg, String result, long inv, long resp) {
        return new Op(thread, kind, arg, result, inv, resp);
    }

    @Test
    void checkerRejectsIllegalHistories() {
        // FIFO broken: two sends in sequence, the later value received first.
        assertNull(LinearizabilityChecker.linearize(history(
                op(0, Kind.SEND, 1, History.OK, 1, 2),
                op(0, Kind.SEND, 2, History.OK, 3, 4),
                op(1, Kind.RECV, 0, "2", 5, 6)), 2));
        // A completed send's value not there for a later non-blocking receive.
        assertNull(LinearizabilityChecker.linearize(history(
                op(0, Kind.SEND, 1, History.OK, 1, 2),
                op(1, Kind.TRY_RECV, 0, History.EMPTY, 3, 4)), 1));
        // Close lost a buffered value.
        assertNull(LinearizabilityChecker.linearize(history(
                op(0, Kind.SEND, 1, History.OK, 1, 2),
                op(0, Kind.CLOSE, 0, History.OK, 3, 4),
                op(1, Kind.RECV, 0, History.CLOSED, 5, 6)), 1));
        // Two successful closes.
        assertNull(LinearizabilityChecker.linearize(history(
                op(0, Kind.CLOSE, 0, History.OK, 1, 4),
                op(1, Kind.CLOSE, 0, History.OK, 2, 3)), 0));
        // A value received twice.
        assertNull(LinearizabilityChecker.linearize(history(
                op(0, Kind.SEND, 1, History.OK, 1, 2),
                op(1, Kind.RECV, 0, "1", 3, 4),
                op(2, Kind.RECV, 0, "1", 3, 5)), 1));
        // Unbuffered: two non-blocking operations cannot meet (neither waits for the other).
        assertNull(LinearizabilityChecker.linearize(history(
                op(0, Kind.TRY_SEND, 1, History.OK, 1, 4),
                op(1, Kind.TRY_RECV, 0, "1", 2, 3)), 0));
        // Unbuffered: a receive that finished before the send began cannot have its value.
        assertNull(LinearizabilityChecker.linearize(history(
                op(1, Kind.RECV, 0, "1", 1, 2),
                op(0, Kind.SEND, 1, History.OK, 3, 4)), 0));
        // trySend into a buffer with room reported full.
        assertNull(LinearizabilityChecker.linearize(history(
                op(0, Kind.TRY_SEND, 1, History.FULL, 1, 2)), 1));
        // A send after a completed close did not panic.
        assertNull(LinearizabilityChecker.linearize(history(
                op(0, Kind.CLOSE, 0, History.OK, 1, 2),
                op(1, Kind.SEND, 1, History.OK, 3, 4)), 1));
    }

    @Test
    void checkerAcceptsLegalOverlaps() {
        // The receive overlaps the send, so the send may come first.
        assertNotNull(LinearizabilityChecker.linearize(history(
                op(0, Kind.SEND, 1, History.OK, 1, 10),
                op(1, Kind.RECV, 0, "1", 2, 3)), 1));
        // Unbuffered rendezvous, and a trySend meeting a parked receiver.
        assertNotNull(LinearizabilityChecker.linearize(history(
                op(0, Kind.SEND, 1, History.OK, 1, 4),
                op(1, Kind.RECV, 0, "1", 2, 3),
                op(0, Kind.TRY_SEND, 2, History.OK, 5, 6),
                op(2, Kind.RECV, 0, "2", 1, 7)), 0));
        // Overlapping sends may be received in either order.
        assertNotNull(LinearizabilityChecker.linearize(history(
                op(0, Kind.SEND, 1, History.OK, 1, 4),
                op(1, Kind.SEND, 2, History.OK, 2, 3),
                op(2, Kind.RECV, 0, "2", 5, 6),
                op(2, Kind.RECV, 0, "1", 7, 8),
                op(2, Kind.CLOSE, 0, History.OK, 9, 10),
                op(2, Kind.RECV, 0, History.CLOSED, 11, 12)), 2));
    }

    /**
     * The whole harness catches broken channels: a LIFO buffer, and a close that drops what is
     * buffered. Platform threads only (the broken channels use Java monitors).
     */
    @Test
    void harnessCatchesBrokenChannels() {
        try (GoRuntime rt = GoRuntime.builder().maxProcs(1).name("lin-mutants").build()) {
            for (IntFunction<ChanOps> broken : List.<IntFunction<ChanOps>>of(
                    cap -> new BrokenChan(cap, true, false), cap -> new BrokenChan(cap, false, true))) {
                SplittableRandom rnd = new SplittableRandom(42);
                int caught = 0;
                for (int it = 0; it < 300 && caught == 0; it++) {
                    History h = record(rt, broken.apply(2), rnd.split(), WORKERS);
                    if (LinearizabilityChecker.linearize(h, 2) == null) {
                        caught++;
                    }
                }
                assertTrue(caught > 0, "a broken channel passed 300 histories");
            }
        }
    }

    /** A monitor-based channel with a deliberate bug: LIFO order, or a close that loses values. */
    private static final class BrokenChan implements ChanOps {
        private final int cap;
        private final boolean lifo;
        private final boolean lossyClose;
        private final ArrayDeque<Integer> buf = new ArrayDeque<>();
        private boolean closed;

        BrokenChan(int cap, boolean lifo, boolean lossyClose) {
            this.cap = cap;
            this.lifo = lifo;
            this.lossyClose = lossyClose;
        }

        public synchronized void send(int v) {
            while (!closed && buf.size() == cap) {
                waitQuietly();
            }
            if (!trySend(v)) {
                throw new AssertionError();
            }
        }

        public synchronized Integer recv() {
            while (!closed && buf.isEmpty()) {
                waitQuietly();
            }
            Recv<Integer> r = tryRecv();
            return r.ok() ? r.value() : null;
        }

        public synchronized boolean trySend(int v) {
            if (closed) {
                throw closedException();
            }
            if (buf.size() == cap) {
                return false;
            }
            buf.addLast(v);
            notifyAll();
            return true;
        }

        public synchronized Recv<Integer> tryRecv() {
            if (!buf.isEmpty()) {
                notifyAll();
                return new Recv<>(lifo ? buf.pollLast() : buf.pollFirst(), true);
            }
            return closed ? Recv.closed() : null;
        }

        public synchronized void close() {
            if (closed) {
                throw closedException();
            }
            closed = true;
            if (lossyClose) {
                buf.clear();
            }
            notifyAll();
        }

        private void waitQuietly() {
            try {
                wait();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }

        private static ChannelClosedException closedException() {
            // The real exception has a package-private constructor: take one from a real channel.
            Chan<Integer> c = new Chan<>();
            c.close();
            try {
                c.close();
            } catch (ChannelClosedException e) {
                return e;
            }
            throw new AssertionError();
        }
    }
}
