package io.gmp4j.bench.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gmp4j.bench.net.Figure;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Each remote benchmark in its smallest mode, for both implementations, two real JVMs on
 * loopback: the counts are exact (every round trip answered in order, every message counted
 * once by the receiver, one Terminated per kill) and every figure is there. No timing is
 * asserted.
 */
class RemoteBenchTest {
    private static final long PINGS = 200;
    /** Above one window of one sender (2000) and not a multiple of any ack interval. */
    private static final long MESSAGES = 4_510;

    @ParameterizedTest
    @ValueSource(strings = {"gmp4j", "pekko"})
    void pingpongAndThroughputCountExactly(String impl) throws Exception {
        try (RemoteSide side = RemoteDriver.open(impl);
             PeerProcess peer = PeerProcess.start(impl, side.peerArgs(), "[test " + impl + " peer] ")) {
            side.connect(peer.info());
            RemoteDriver.Outcome pp = RemoteDriver.runOn("remote-pingpong", side, peer, 0, 2, PINGS);
            assertEquals(List.of(PINGS, PINGS), pp.counted());
            assertFigures(pp, List.of("remote-pingpong", "remote-pingpong-p50", "remote-pingpong-p99",
                    "remote-pingpong-cpu-sender", "remote-pingpong-cpu-receiver"), 2);

            RemoteDriver.Outcome t1 = RemoteDriver.runOn("remote-throughput-1", side, peer, 0, 2, MESSAGES);
            assertEquals(List.of(MESSAGES, MESSAGES), t1.counted());
            assertFigures(t1, List.of("remote-throughput-1", "remote-throughput-1-cpu-sender",
                    "remote-throughput-1-cpu-receiver"), 2);

            // ten senders: the total is rounded down to a multiple of ten
            RemoteDriver.Outcome t10 = RemoteDriver.runOn("remote-throughput-10", side, peer, 0, 1, MESSAGES);
            assertEquals(List.of(MESSAGES - MESSAGES % 10), t10.counted());
            assertFigures(t10, List.of("remote-throughput-10", "remote-throughput-10-cpu-sender",
                    "remote-throughput-10-cpu-receiver"), 1);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"gmp4j", "pekko"})
    void killDetectSeesTerminated(String impl) throws Exception {
        RemoteDriver.Outcome o = RemoteDriver.run("remote-kill-detect", impl, 0, 1, 1);
        assertEquals(List.of(1L), o.counted());
        assertFigures(o, List.of("remote-kill-detect"), 1);
    }

    @org.junit.jupiter.api.Test
    void badArgumentsAreRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RemoteDriver.run("remote-nothing", "gmp4j", 0, 1, 1));
        assertTrue(e.getMessage().contains("not a remote benchmark"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> RemoteDriver.run("remote-pingpong", "jdk", 0, 1, 1));
        assertTrue(e.getMessage().contains("unknown impl"), e.getMessage());
    }

    @org.junit.jupiter.api.Test
    void creditAndTallyKeepTheWindowAndCountExactly() {
        FlowControl.Credit c = new FlowControl.Credit(10, 4);
        for (long i = 0; i < 4; i++) {
            assertEquals(i, c.next());
        }
        assertEquals(-1, c.next(), "a full window sends nothing");
        c.ack(2);
        assertEquals(4, c.next());
        assertEquals(5, c.next());
        assertEquals(-1, c.next());
        assertThrows(IllegalStateException.class, () -> c.ack(7), "an ack of more than was sent");

        FlowControl.Tally t = new FlowControl.Tally();
        t.reset(6, 2); // window 1000, ack every 250
        assertEquals(-1, t.onData(0, 0));
        assertEquals(-1, t.onData(1, 0));
        assertEquals(-1, t.onData(0, 1));
        assertEquals(-1, t.onData(0, 1)); // a duplicate
        assertEquals(-1, t.onData(1, 5)); // a gap
        assertEquals(-1, t.onData(7, 0)); // no such sender
        assertTrue(t.justCompleted());
        assertEquals(6, t.received());
        assertEquals(3, t.errors());
    }

    private static void assertFigures(RemoteDriver.Outcome o, List<String> names, int samples) {
        assertEquals(names, o.figures().stream().map(Figure::bench).toList());
        for (Figure f : o.figures()) {
            assertEquals(samples, f.samples().size(), f.bench());
            for (double v : f.samples()) {
                assertTrue(v >= 0 && Double.isFinite(v), f.bench() + ": " + v);
            }
        }
    }
}
