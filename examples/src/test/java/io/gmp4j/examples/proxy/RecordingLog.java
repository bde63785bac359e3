package io.gmp4j.examples.proxy;

import io.gmp4j.TestSupport;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.fail;

/** A {@link ProxyLog} that keeps what it is told, for the tests to wait on and check. */
final class RecordingLog implements ProxyLog {
    /** A failed dial. */
    record DialFailure(InetSocketAddress upstream, IOException why) {
    }

    final BlockingQueue<ConnRecord> closed = new LinkedBlockingQueue<>();
    final BlockingQueue<DialFailure> dialFailures = new LinkedBlockingQueue<>();
    final BlockingQueue<ProxyStats> stats = new LinkedBlockingQueue<>();

    @Override
    public void connectionClosed(ConnRecord r) {
        closed.add(r);
    }

    @Override
    public void dialFailed(InetSocketAddress upstream, IOException why) {
        dialFailures.add(new DialFailure(upstream, why));
    }

    @Override
    public void stats(ProxyStats s) {
        stats.add(s);
    }

    /** The next closed connection's record, waiting for it (safety-net timeout). */
    ConnRecord nextClosed() throws InterruptedException {
        ConnRecord r = closed.poll(TestSupport.TIMEOUT_S, TimeUnit.SECONDS);
        assertNotNull(r, "no connection closed within " + TestSupport.TIMEOUT_S + " s");
        return r;
    }

    /** The next {@code n} records. */
    List<ConnRecord> nextClosed(int n) throws InterruptedException {
        List<ConnRecord> out = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            out.add(nextClosed());
        }
        return out;
    }

    /** Waits for a stats line that satisfies {@code p}, skipping the others. */
    ProxyStats awaitStats(Predicate<ProxyStats> p) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TestSupport.TIMEOUT_S);
        List<ProxyStats> seen = new ArrayList<>();
        while (true) {
            ProxyStats s = stats.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
            if (s == null) {
                fail("no matching stats line within " + TestSupport.TIMEOUT_S + " s; saw " + seen);
            }
            if (p.test(s)) {
                return s;
            }
            seen.add(s);
        }
    }
}
