package io.gmp4j.net;

import io.gmp4j.runtime.Scheduler;
import io.gmp4j.GoRuntime;
import io.gmp4j.TestSupport;
import io.gmp4j.SchedStats;
import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** How the poller belongs to its runtime: deadlock detection, stats, shutdown. */
class RuntimeTest extends NetTestBase {

    /**
     * A main goroutine parked in a read, with every M idle, is not a deadlock: the poller may
     * still ready it. The peer (a platform thread) writes only once checkdead has run.
     */
    @Test
    void aGoroutineWaitingForTheNetworkIsNotADeadlock() throws Exception {
        AtomicReference<Conn> client = new AtomicReference<>();
        AtomicReference<Conn> server = new AtomicReference<>();
        Thread peer = Thread.ofPlatform().daemon().start(() -> {
            TestSupport.awaitCondition(() -> server.get() != null && server.get().reader.parkedReaders() == 1,
                    () -> "main never parked in read");
            // Every M idle or blocked in a per-P loop: the last one to stop ran checkdead with
            // main parked on the network.
            TestSupport.awaitCondition(() -> {
                SchedStats s = rt.stats();
                int blocked = Scheduler.of(rt).attachedNetpoll() instanceof Poller p ? p.blockedLoops() : 0;
                return s.idleThreads() + blocked == s.threads() - 1;
            }, () -> "Ms never went idle: " + rt.stats());
            try {
                client.get().write(new byte[]{5});
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
        Throwable t = TestSupport.runMain(rt, () -> {
            try (Listener l = Net.listen("127.0.0.1:0")) {
                client.set(Net.dial(l.address()));
                Conn s = l.accept();
                server.set(s);
                byte[] b = new byte[1];
                assertEquals(1, s.read(b, 0, 1));
                assertEquals(5, b[0]);
                s.close();
                client.get().close();
            } catch (Exception e) {
                throw new RuntimeException(e);
            }
        });
        peer.join(TestSupport.TIMEOUT_S * 1000);
        assertNull(t, () -> "main failed: " + t);
    }

    @Test
    void racingFirstUsesAttachOnePoller() throws Exception {
        for (int round = 0; round < TestSupport.stress(20, 5); round++) {
            try (GoRuntime fresh = GoRuntime.builder().name("race").maxProcs(2).build()) {
                int n = 8;
                Poller[] seen = new Poller[n];
                java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(n);
                AtomicReference<Throwable> failed = new AtomicReference<>();
                for (int i = 0; i < n; i++) {
                    int id = i;
                    fresh.go(() -> {
                        try (Listener l = Net.listen("127.0.0.1:0"); Conn c = Net.dial(l.address()); Conn s = l.accept()) {
                            c.write(new byte[]{(byte) id});
                            byte[] b = new byte[1];
                            assertEquals(1, s.read(b, 0, 1));
                            seen[id] = Poller.current();
                        } catch (Throwable t) {
                            failed.set(t);
                        } finally {
                            done.countDown();
                        }
                    });
                }
                TestSupport.await(done, () -> fresh.stats().toString());
                assertNull(failed.get(), () -> "a goroutine failed: " + failed.get());
                for (Poller p : seen) {
                    assertSame(seen[0], p, "one poller per runtime");
                }
            }
        }
    }

    @Test
    void closingTheRuntimeWakesAPlatformThreadReadingItsConn() throws Exception {
        GoRuntime other = GoRuntime.builder().name("closing").maxProcs(1).build();
        AtomicReference<Conn[]> pair = new AtomicReference<>();
        TestSupport.runInGoroutine(other, () -> {
            Listener l = Net.listen("127.0.0.1:0");
            Conn c = Net.dial(l.address());
            pair.set(new Conn[]{c, l.accept()});
            // a goroutine parked too, ahead of the platform thread in the wake order
            io.gmp4j.Go.go(() -> {
                try {
                    c.read(new byte[1], 0, 1);
                } catch (Exception e) {
                    // abandoned with its runtime
                }
            });
        });
        Conn c = pair.get()[0];
        AtomicReference<Object> outcome = new AtomicReference<>();
        Thread reader = Thread.ofPlatform().daemon().start(() -> {
            try {
                outcome.set(c.read(new byte[1], 0, 1));
            } catch (Exception e) {
                outcome.set(e);
            }
        });
        TestSupport.awaitCondition(() -> c.reader.parkedReaders() == 2, () -> "readers never parked");
        other.close();
        reader.join(TestSupport.TIMEOUT_S * 1000);
        assertFalse(reader.isAlive(), "a platform thread reading a conn of a closed runtime must wake");
        assertTrue(outcome.get() instanceof java.io.IOException || Integer.valueOf(-1).equals(outcome.get()),
                () -> "EOF or an error, got " + outcome.get());
    }

    @Test
    void onePollerPerRuntimeClosedWithTheRuntime() throws Exception {
        try (GoRuntime other = GoRuntime.builder().name("other").maxProcs(1).build()) {
            AtomicReference<Poller> a = new AtomicReference<>();
            AtomicReference<Poller> b = new AtomicReference<>();
            AtomicReference<Listener> l = new AtomicReference<>();
            TestSupport.runInGoroutine(other, () -> {
                l.set(Net.listen("127.0.0.1:0"));
                a.set(Poller.current());
            });
            TestSupport.runInGoroutine(other, () -> b.set(Poller.current()));
            assertSame(a.get(), b.get(), "one poller per runtime");
            assertSame(a.get(), Scheduler.of(other).attachedNetpoll());
            go(() -> assertFalse(Poller.current() == a.get(), "each runtime has its own"));
            assertTrue(other.stats().counters().contains("netpoll=[" + a.get().transport.word + " "), other.stats().counters());
            // A goroutine of `other` parked in accept when its runtime closes: the poller goes too.
            other.go(() -> {
                try {
                    l.get().accept();
                } catch (Exception e) {
                    // closed with the runtime
                }
            });
            TestSupport.awaitCondition(() -> l.get().parkedAcceptors() == 1, () -> "accept never parked");
            other.close();
            assertTrue(a.get().awaitStopped(TestSupport.TIMEOUT_S * 1000), "poller ended with its runtime");
            assertTrue(a.get().terminated());
            assertThrows(Exception.class, () -> other.go(() -> { }));
        }
    }
}
