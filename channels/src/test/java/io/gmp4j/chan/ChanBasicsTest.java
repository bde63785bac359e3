package io.gmp4j.chan;

import io.gmp4j.GoRuntime;
import io.gmp4j.NoUncaughtExceptions;
import io.gmp4j.TestSupport;
import io.gmp4j.SchedStats;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.junit.jupiter.api.Assertions.*;

/** The channel contract a user relies on first: values arrive once, in order; close; errors. */
@ExtendWith(NoUncaughtExceptions.class)
class ChanBasicsTest {
    @Test
    void unbufferedPingPongBetweenGoroutinesGoesThroughRunnext() {
        int n = TestSupport.stress(200_000, 20_000);
        try (GoRuntime rt = GoRuntime.builder().maxProcs(1).name("chan-pingpong").build()) {
            Chan<Integer> ping = new Chan<>();
            Chan<Integer> pong = new Chan<>();
            long before = rt.stats().runnextHits();
            TestSupport.runInGoroutine(rt, () -> {
                rt.go(() -> {
                    for (Integer v : ping) {
                        pong.send(v + 1);
                    }
                    pong.close();
                });
                for (int i = 0; i < n; i++) {
                    ping.send(i);
                    assertEquals(i + 1, pong.recv());
                }
                ping.close();
                assertNull(pong.recv());
                assertFalse(pong.recvOk().ok());
            });
            SchedStats s = rt.stats();
            assertTrue(s.runnextHits() - before >= n, () -> "runnext hits " + (s.runnextHits() - before) + " for " + n + " round trips: " + s);
        }
    }

    @Test
    void bufferedChannelKeepsFifoOrderAcrossBlockedSenders() {
        try (GoRuntime rt = GoRuntime.builder().maxProcs(2).name("chan-fifo").build()) {
            Chan<Integer> ch = new Chan<>(4);
            int n = 10_000;
            TestSupport.runInGoroutine(rt, () -> {
                rt.go(() -> {
                    for (int i = 0; i < n; i++) {
                        ch.send(i);
                    }
                    ch.close();
                });
                int expect = 0;
                for (int v : ch) {
                    assertEquals(expect++, v);
                }
                assertEquals(n, expect);
            });
        }
    }

    @Test
    void platformThreadsUseChannelsToo() throws Exception {
        Chan<String> ch = new Chan<>();
        List<String> got = new ArrayList<>();
        Thread t = Thread.ofPlatform().start(() -> {
            for (String s : ch) {
                got.add(s);
            }
        });
        ch.send("a");
        ch.send("b");
        ch.close();
        t.join(TestSupport.TIMEOUT_S * 1000);
        assertEquals(List.of("a", "b"), got);
    }

    @Test
    void goPanicsBecomeExceptionsWithGoMessages() {
        Chan<Integer> ch = new Chan<>(1);
        ch.close();
        assertEquals("send on closed channel", assertThrows(ChannelClosedException.class, () -> ch.send(1)).getMessage());
        assertEquals("close of closed channel", assertThrows(ChannelClosedException.class, ch::close).getMessage());
        assertThrows(NullPointerException.class, () -> new Chan<Integer>().trySend(null));
        assertThrows(IllegalArgumentException.class, () -> new Chan<Integer>(-1));
    }

    @Test
    void selectTimesOutAndReceives() {
        try (GoRuntime rt = GoRuntime.builder().maxProcs(2).name("chan-select").build()) {
            TestSupport.runInGoroutine(rt, () -> {
                Chan<Integer> a = new Chan<>();
                Select s = new Select();
                int ra = s.recv(a);
                int t = s.timeout(Duration.ofMillis(5));
                assertEquals(t, s.select());
                CountDownLatch sent = new CountDownLatch(1);
                rt.go(() -> { a.send(7); sent.countDown(); });
                s.reset();
                ra = s.recv(a);
                s.timeout(Duration.ofSeconds(TestSupport.TIMEOUT_S));
                assertEquals(ra, s.select());
                assertEquals(7, (int) s.value());
                assertTrue(s.ok());
            });
        }
    }

    @Test
    void statementFormRunsTheBodyOfTheCaseThatFired() {
        Chan<Integer> in = new Chan<>(1);
        Chan<String> out = new Chan<>(1);
        List<String> log = new ArrayList<>();
        in.send(5);
        Select.select(
                Select.onRecv(in, v -> log.add("recv " + v)),
                Select.onTimeout(Duration.ofSeconds(TestSupport.TIMEOUT_S), () -> log.add("timeout")));
        Select.select(Select.onSend(out, "x", () -> log.add("sent")));
        Select.selectOrDefault(() -> log.add("default"), Select.onSend(out, "y", () -> log.add("sent again")));
        in.close();
        Select.select(Select.onRecvOk(in, (v, ok) -> log.add("closed " + v + " " + ok)));
        Select.select(Select.onTimeout(Duration.ofMillis(1), () -> log.add("timeout")));
        assertEquals(List.of("recv 5", "sent", "default", "closed null false", "timeout"), log);
        assertEquals("x", out.recv());
    }
}
