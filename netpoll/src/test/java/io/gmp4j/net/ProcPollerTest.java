package io.gmp4j.net;

import io.gmp4j.runtime.Scheduler;
import io.gmp4j.GoRuntime;
import io.gmp4j.TestSupport;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The per-P loops (the default, {@code -Dgmp4j.netpoll=perp}; the surefire execution
 * {@code thread-poller} runs the other network tests again with the poller thread): accepted connections spread over the
 * loops, every loop's poll goroutine serves them, and an idle runtime leaves its Ms blocked in
 * the loops rather than sleeping (so a read on any loop is answered without sysmon's help).
 */
class ProcPollerTest extends NetTestBase {

    @Test
    void connectionsSpreadOverTheLoopsAndEachLoopServesItsOwn() throws Exception {
        AtomicReference<Poller> poller = new AtomicReference<>();
        Listener l = echoServer();
        go(() -> poller.set(Poller.current()));
        ProcPoller p = assertInstanceOf(ProcPoller.class, poller.get(), "run with -Dgmp4j.netpoll=perp");
        int conns = 8;
        int rounds = TestSupport.stress(2_000, 200);
        go(() -> {
            Conn[] cs = new Conn[conns];
            for (int i = 0; i < conns; i++) {
                cs[i] = Net.dial(l.address());
            }
            // One round trip at a time per connection: every read waits for the peer, so each
            // loop's poll goroutine must run (by pollNow, or by an M blocked in it) every round.
            byte[] out = new byte[64];
            byte[] in = new byte[64];
            for (int r = 0; r < rounds; r++) {
                for (int i = 0; i < conns; i++) {
                    out[0] = (byte) r;
                    out[1] = (byte) i;
                    cs[i].write(out, 0, out.length);
                    int got = 0;
                    while (got < in.length) {
                        int n = cs[i].read(in, got, in.length - got);
                        assertTrue(n > 0, "echo ended early");
                        got += n;
                    }
                    assertEquals((byte) r, in[0]);
                    assertEquals((byte) i, in[1]);
                }
            }
            for (Conn c : cs) {
                c.close();
            }
        });
        String d = p.describe();
        for (int pid = 0; pid < Scheduler.of(rt).gomaxprocs(); pid++) {
            assertTrue(p.loopTurns(pid) > 0, "loop of P" + pid + " never ran: " + d);
        }
        l.close();
    }

    /**
     * A proxy's upstream dialled near its client connection shares the client's loop, whichever
     * P the dialling goroutine runs on, and carries bytes like any other connection.
     */
    @Test
    void aDialNearAConnectionSharesItsLoop() throws Exception {
        Listener upstream = echoServer();
        go(() -> {
            try (Listener front = Net.listen("127.0.0.1:0")) {
                // Two accepted connections: Netty spreads them over the two loops.
                Conn a = Net.dial(front.address());
                Conn b = Net.dial(front.address());
                Conn[] accepted = {front.accept(), front.accept()};
                assertNotSame(accepted[0].ch.eventLoop(), accepted[1].ch.eventLoop(),
                        "accepted connections should land on different loops");
                byte[] out = new byte[1000];
                byte[] in = new byte[out.length];
                for (Conn client : accepted) {
                    try (Conn up = Net.dial(upstream.address(), Duration.ofSeconds(5), client)) {
                        assertSame(client.ch.eventLoop(), up.ch.eventLoop(), "the upstream's loop");
                        Arrays.fill(out, (byte) client.hashCode());
                        up.write(out, 0, out.length);
                        int got = 0;
                        while (got < in.length) {
                            int n = up.read(in, got, in.length - got);
                            assertTrue(n > 0, "echo ended early");
                            got += n;
                        }
                        assertArrayEquals(out, in);
                    }
                }
                for (Conn c : new Conn[] {a, b, accepted[0], accepted[1]}) {
                    c.close();
                }
            }
        });
        upstream.close();
    }

    @Test
    void anIdleRuntimeBlocksItsMsInTheLoops() throws Exception {
        try (GoRuntime idle = GoRuntime.builder().name("idle-perp").maxProcs(2).build()) {
            AtomicReference<Poller> poller = new AtomicReference<>();
            AtomicReference<Listener> l = new AtomicReference<>();
            TestSupport.runInGoroutine(idle, () -> {
                l.set(Net.listen("127.0.0.1:0"));
                poller.set(Poller.current());
            });
            idle.go(() -> {
                try {
                    l.get().accept().close();
                } catch (Exception e) {
                    // closed with the runtime
                }
            });
            ProcPoller p = (ProcPoller) poller.get();
            // Only the listener's loop has a channel: one M waits in it, the other P sleeps.
            TestSupport.awaitCondition(() -> p.blockedLoops() == 1, () -> "no M blocked in the listener's loop: " + p);
            TestSupport.runInGoroutine(idle, () -> Net.dial(l.get().address()).close());
        }
    }

    /**
     * With an M waiting in each loop and no I/O to come, a timer added from outside still
     * fires, again and again. A blocked turn that readies nothing now waits again in place, so
     * this checks that the Ms staying in the loops leave timers to someone: adding one breaks
     * the blocked turns (Go's netpollBreak), and the timer's own wake-up of an idle M covers
     * it too (the test passes with either alone).
     */
    @Test
    void aTimerAddedWhileTheMsWaitInTheLoopsFires() throws Exception {
        try (GoRuntime idle = GoRuntime.builder().name("timer-perp").maxProcs(2).build()) {
            AtomicReference<Poller> poller = new AtomicReference<>();
            AtomicReference<Conn[]> conns = new AtomicReference<>();
            TestSupport.runInGoroutine(idle, () -> {
                try (Listener l = Net.listen("127.0.0.1:0")) {
                    // Two connections, both ends kept open: accepted ones alternate between the
                    // loops, so each loop has channels and gets an M waiting in it.
                    Conn a = Net.dial(l.address());
                    Conn b = Net.dial(l.address());
                    conns.set(new Conn[]{a, b, l.accept(), l.accept()});
                }
                poller.set(Poller.current());
            });
            ProcPoller p = (ProcPoller) poller.get();
            try {
                for (int i = 0; i < TestSupport.stress(200, 50); i++) {
                    TestSupport.awaitCondition(() -> p.blockedLoops() == 2, () -> "not every loop has an M waiting in it: " + p);
                    java.util.concurrent.CountDownLatch fired = new java.util.concurrent.CountDownLatch(1);
                    Scheduler.of(idle).newTimer(fired::countDown).reset(System.nanoTime() + 1_000_000L * (i % 3));
                    TestSupport.await(fired, () -> "the timer never fired: " + idle.stats());
                }
            } finally {
                for (Conn c : conns.get()) {
                    c.close();
                }
            }
        }
    }

    /**
     * GOMAXPROCS changes while connections echo: the per-P loops stay the two made at attach
     * (their poll goroutines run on whatever Ps exist; P ids above the loop count poll through
     * the loops modulo), and every round trip completes with the right bytes.
     */
    @Test
    void gomaxprocsChangesWhileConnectionsEcho() throws Exception {
        try (GoRuntime r = GoRuntime.builder().name("resize-perp").maxProcs(2).build()) {
            AtomicReference<Poller> poller = new AtomicReference<>();
            AtomicReference<Listener> l = new AtomicReference<>();
            TestSupport.runInGoroutine(r, () -> {
                l.set(Net.listen("127.0.0.1:0"));
                poller.set(Poller.current());
            });
            ProcPoller p = assertInstanceOf(ProcPoller.class, poller.get(), "run with -Dgmp4j.netpoll=perp");
            r.go(() -> {
                while (true) {
                    Conn c;
                    try {
                        c = l.get().accept();
                    } catch (java.io.IOException e) {
                        return; // closed
                    }
                    io.gmp4j.Go.go(() -> {
                        byte[] buf = new byte[4096];
                        try (c) {
                            int n;
                            while ((n = c.read(buf, 0, buf.length)) > 0) {
                                c.write(buf, 0, n);
                            }
                        } catch (java.io.IOException e) {
                            // the peer went away
                        }
                    });
                }
            });
            int clients = 8;
            int rounds = TestSupport.stress(1_000, 200);
            java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(clients);
            java.util.concurrent.atomic.AtomicInteger trips = new java.util.concurrent.atomic.AtomicInteger();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            for (int k = 0; k < clients; k++) {
                int me = k;
                r.go(() -> {
                    try (Conn c = Net.dial(l.get().address())) {
                        byte[] out = new byte[256];
                        byte[] in = new byte[256];
                        for (int i = 0; i < rounds; i++) {
                            Arrays.fill(out, (byte) (me * 31 + i));
                            c.write(out, 0, out.length);
                            readFully(c, in, 0, in.length);
                            assertArrayEquals(out, in, "echo of round " + i);
                            trips.incrementAndGet();
                        }
                    } catch (Throwable t) {
                        failure.compareAndSet(null, t);
                    } finally {
                        done.countDown();
                    }
                });
            }
            int[] cycle = {4, 1, 3, 2};
            java.util.SplittableRandom rnd = new java.util.SplittableRandom(7);
            int changes = 0;
            while (done.getCount() > 0 && changes < 400) {
                java.util.concurrent.locks.LockSupport.parkNanos(rnd.nextLong(2_000_000));
                r.gomaxprocs(cycle[changes++ % cycle.length]);
            }
            TestSupport.await(done, () -> trips + " round trips; " + r.stats() + " " + p.describe());
            if (failure.get() != null) {
                throw new AssertionError("a client failed", failure.get());
            }
            assertEquals(clients * rounds, trips.get());
            assertTrue(changes >= 2, "GOMAXPROCS changed while the clients ran: " + changes);
            String loops = p.describeLoops();
            assertTrue(loops.startsWith("perp P0{") && loops.contains(" P1{") && !loops.contains(" P2{"),
                    "still the two loops made at attach: " + loops);
            System.out.println("perp resize: " + changes + " changes, " + r.stats() + " " + p.describe());
            l.get().close();
        }
    }
}
