package io.gmp4j.examples.proxy;

import io.gmp4j.Go;
import io.gmp4j.chan.Chan;
import io.gmp4j.examples.IdleWatchdog;
import io.gmp4j.examples.proxy.ConnRecord.Outcome;
import io.gmp4j.net.Conn;
import io.gmp4j.net.Io;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.LongConsumer;

/**
 * One proxied connection: dials an upstream, copies bytes both ways until both directions
 * ended, closes both connections and reports what happened as a {@link ConnRecord}.
 *
 * <h2>Goroutines</h2>
 * {@link #run} runs in the connection's goroutine and copies client to upstream ("up"); a second
 * goroutine copies upstream to client ("down"). Each direction, at the end of its input,
 * half-closes its output ({@link Conn#closeWrite}), so a client's FIN reaches the upstream and
 * an upstream's FIN reaches the client, and the other direction goes on: a client that sends
 * a request and shuts its write side still reads the whole reply. When both directions have
 * ended, the upstream is closed, then the client (which frees the client's slot under
 * {@code --max-conns}, so the count of upstream connections never exceeds the limit either).
 *
 * <h2>Ending early</h2>
 * The first of these wins ({@link #ending}, set once) and closes both connections, which wakes
 * both copies with an error they then ignore: a read or write failure in either direction
 * ({@link Outcome#ERROR}: a reset must not leave the other direction waiting for bytes that
 * will never come), the idle watchdog ({@link Outcome#IDLE}), the server shutting down
 * ({@link Outcome#SHUTDOWN}).
 *
 * <h2>Idle timeout across both directions</h2>
 * Every read touches the {@link IdleWatchdog}, whose timer fires after the idle timeout; if
 * something moved since, it re-arms for the time that is left, otherwise it closes both
 * connections. Chosen over read deadlines because a deadline belongs
 * to one direction (a download's silent upload side would time out while bytes stream the
 * other way), needs a {@code setReadDeadline} per read to slide, and does not cover a write
 * parked on a peer that stopped reading; the watchdog covers all of it with one timer per idle
 * period, and a busy connection pays one volatile write per chunk copied.
 */
final class Session {
    /** How a session ended, and why (an error, the timeout); set once. */
    private record Ending(Outcome outcome, String detail) {
    }

    final long id;
    private final Conn client;
    private final InetSocketAddress clientAddress;
    private final Upstreams upstreams;
    private final Counters counters;
    private final Duration idleTimeout;
    private final long startNanos = System.nanoTime();

    /** Set once by the session goroutine after its dial; read by {@link #abort} from any goroutine. */
    private volatile Conn upstream;
    /** The first ending wins; null while both directions run. */
    private final AtomicReference<Ending> ending = new AtomicReference<>();
    /** The idle timeout's watchdog, or null without one; stopped after {@link #ending} is set. */
    private IdleWatchdog watchdog;
    /** Bytes copied client to upstream: written by the session goroutine only. */
    private long bytesUp;
    /** Bytes copied upstream to client: written by the down goroutine, read after it ended. */
    private long bytesDown;

    Session(long id, Conn client, Upstreams upstreams, Counters counters, Duration idleTimeout) {
        this.id = id;
        this.client = client;
        this.clientAddress = client.remoteAddress();
        this.upstreams = upstreams;
        this.counters = counters;
        this.idleTimeout = idleTimeout;
    }

    /** Serves the connection to its end; call once, from the connection's goroutine. */
    ConnRecord run() {
        InetSocketAddress to = null;
        try {
            Upstreams.Dialed d;
            try {
                d = upstreams.dial(client);
            } catch (IOException e) {
                abort(Outcome.NO_UPSTREAM, e.getMessage());
                return record(null);
            }
            to = d.address();
            upstream = d.conn();
            if (ending.get() == null) { // else the server closed while we dialled: abort missed upstream
                relay(d.conn());
            }
            return record(to);
        } finally {
            Conn u = upstream;
            if (u != null) {
                u.close();
            }
            client.close();
        }
    }

    /** Copies both ways until both directions ended (or one failed, or the watchdog fired). */
    private void relay(Conn up) {
        if (idleTimeout.toNanos() > 0) {
            watchdog = new IdleWatchdog(idleTimeout, () -> abort(Outcome.IDLE,
                    "no bytes either way for " + ProxyFlags.formatDuration(idleTimeout)));
            watchdog.start();
        }
        Chan<Void> downDone = new Chan<>();
        Go.go(() -> {
            try {
                bytesDown = copy(up, client, counters.bytesDown, "upstream to client");
            } finally {
                downDone.close(); // publishes bytesDown to the recv below
            }
        });
        bytesUp = copy(client, up, counters.bytesUp, "client to upstream");
        downDone.recv();
        ending.compareAndSet(null, new Ending(Outcome.EOF, ""));
        if (watchdog != null) {
            watchdog.stop();
        }
    }

    /**
     * Copies {@code from} to {@code to} until {@code from}'s end of stream, then half-closes
     * {@code to}. A failure ends the whole session. Returns the bytes copied.
     */
    private long copy(Conn from, Conn to, LongAdder total, String direction) {
        // Go's io.Copy. Both connections share an event loop (the upstream is dialled next to
        // its client), so the loop forwards the bytes and calls progress per chunk.
        long[] copied = {0}; // bytes handed to `to`, also when the copy fails part-way
        IdleWatchdog w = watchdog; // written before the down goroutine started: it sees it
        LongConsumer progress = n -> {
            copied[0] += n;
            if (w != null) {
                w.touch();
            }
            total.add(n);
        };
        try {
            Io.copy(to, from, progress);
            to.closeWrite();
        } catch (IOException e) {
            // After an abort this is the close that woke us: the first ending stays.
            abort(Outcome.ERROR, direction + ": " + e.getMessage());
        }
        return copied[0];
    }

    /**
     * Ends the session early unless it already ended: records why and closes both connections,
     * which wakes every goroutine of the session. Any goroutine may call it.
     */
    void abort(Outcome outcome, String detail) {
        if (!ending.compareAndSet(null, new Ending(outcome, detail))) {
            return;
        }
        Conn u = upstream; // null while dialling: run() checks ending after it sets upstream
        if (u != null) {
            u.close();
        }
        client.close();
    }

    private ConnRecord record(InetSocketAddress to) {
        Ending e = ending.get();
        return new ConnRecord(id, clientAddress, to, bytesUp, bytesDown,
                Duration.ofNanos(System.nanoTime() - startNanos), e.outcome(), e.detail());
    }
}
