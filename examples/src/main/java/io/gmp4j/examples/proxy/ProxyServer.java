package io.gmp4j.examples.proxy;

import io.gmp4j.GoRuntime;
import io.gmp4j.chan.Chan;
import io.gmp4j.chan.Select;
import io.gmp4j.examples.AcceptBackoff;
import io.gmp4j.examples.proxy.ConnRecord.Outcome;
import io.gmp4j.net.Conn;
import io.gmp4j.net.Listener;
import io.gmp4j.net.Net;
import io.gmp4j.net.NetClosedException;
import io.gmp4j.sync.WaitGroup;
import io.gmp4j.time.Ticker;
import io.gmp4j.time.Time;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * A TCP proxy on goroutines: accepts clients on one address and forwards each connection to
 * one of several upstreams, round-robin with failover.
 *
 * <h2>Goroutines</h2>
 * An <b>acceptor</b> ({@link Listener#accept} in a loop) starts a goroutine per connection,
 * which dials an upstream ({@link Upstreams}) and copies both ways with a second goroutine
 * ({@link Session}: half-close propagated, idle watchdog, byte counters). A <b>stats</b>
 * goroutine logs {@link ProxyStats} every {@link ProxyConfig#statsInterval}, selecting over a
 * ticker and the quit channel.
 *
 * <h2>Connection limit</h2>
 * {@link ProxyConfig#maxConns} is the listener's limit ({@link Listener#limit}, Go's
 * {@code netutil.LimitListener}): with that many connections open the acceptor waits, and
 * further clients wait in the kernel's accept backlog (their connect succeeds, their bytes
 * wait) until a connection ends; none is refused by the proxy. A backlog that overflows is
 * the kernel's business (a SYN dropped and retried). Each client connection holds at most one
 * upstream connection, closed before the client's, so upstream connections stay within the
 * limit too. Chosen over refusing the extra clients because a short burst over the limit
 * then costs latency, not errors, which is what a client of a proxy expects.
 *
 * <h2>Shutdown</h2>
 * {@link #close}: the listener closes, every open connection is closed on both sides
 * ({@link Outcome#SHUTDOWN} in its record), the stats goroutine stops, and close returns once
 * every connection's goroutines have ended.
 *
 * <p>To embed it (a benchmark, a test): {@code ProxyServer.start(rt, config, ProxyLog.QUIET)},
 * {@link #address()}, {@link #stats()}, {@link #close()}.
 */
public final class ProxyServer implements AutoCloseable {
    /** Go's net/http backs off accept errors (out of file descriptors) from 5 ms up to 1 s. */
    /** How long {@link #close} waits for the connections' goroutines: they were all woken, so it is a safety net. */
    private static final Duration CLOSE_WAIT = Duration.ofSeconds(30);

    private final GoRuntime rt;
    private final ProxyConfig cfg;
    private final ProxyLog log;
    private final Listener listener;
    private final Counters counters = new Counters();
    private final Upstreams upstreams;
    /** Open sessions, for close to abort. */
    private final Set<Session> open = ConcurrentHashMap.newKeySet();
    /** Every session's goroutine and the stats goroutine. */
    private final WaitGroup running = new WaitGroup();
    private final Chan<Void> quit = new Chan<>();
    private final CountDownLatch stopped = new CountDownLatch(1);
    private final Object closeLock = new Object();
    /** Set once under closeLock; read without it by the acceptor (volatile: see {@link #acceptLoop}). */
    private volatile boolean closing;

    private ProxyServer(GoRuntime rt, ProxyConfig cfg, ProxyLog log, Listener listener) {
        this.rt = rt;
        this.cfg = cfg;
        this.log = log;
        this.listener = listener;
        this.upstreams = new Upstreams(cfg.upstreams(), cfg.connectTimeout(), log, counters);
    }

    /**
     * Listens on {@link ProxyConfig#listen} with goroutines of {@code rt} and serves until
     * {@link #close()}. Callable from any thread.
     *
     * @throws IOException              when it cannot listen (the address is in use, not local)
     * @throws IllegalArgumentException when an upstream is the proxy's own address (a loop)
     */
    public static ProxyServer start(GoRuntime rt, ProxyConfig cfg, ProxyLog log) throws IOException {
        CompletableFuture<Listener> opened = new CompletableFuture<>();
        rt.go(() -> { // the listener belongs to the runtime of the goroutine that opens it
            try {
                Listener l = Net.listen(cfg.listen());
                if (cfg.maxConns() > 0) {
                    l.limit(cfg.maxConns());
                }
                opened.complete(l);
            } catch (Throwable t) {
                opened.completeExceptionally(t);
            }
        });
        Listener listener;
        try {
            listener = opened.get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            throw new IOException("listen " + cfg.listen() + ": " + e.getCause(), e.getCause());
        } catch (Exception e) {
            throw new IOException("listen " + cfg.listen() + ": " + e, e);
        }
        for (InetSocketAddress up : cfg.upstreams()) {
            if (reachesListener(listener.address(), up)) {
                listener.close();
                throw new IllegalArgumentException("upstream " + ConnRecord.hostPort(up) + " is this proxy's own address "
                        + ConnRecord.hostPort(listener.address()) + ": every connection would dial the proxy again");
            }
        }
        ProxyServer s = new ProxyServer(rt, cfg, log, listener);
        if (cfg.statsInterval().isPositive()) {
            s.running.add(1);
            rt.go(s::statsLoop);
        }
        rt.go(s::acceptLoop);
        return s;
    }

    /**
     * True if a dial to {@code upstream} would reach the listener bound at {@code bound}: the same
     * port, and the same address, or a listener on the wildcard and an address of this host, or
     * a dial to the wildcard (which goes to loopback) and a listener on the wildcard or loopback.
     */
    static boolean reachesListener(InetSocketAddress bound, InetSocketAddress upstream) {
        InetAddress u = upstream.getAddress();
        InetAddress l = bound.getAddress();
        if (bound.getPort() != upstream.getPort() || u == null || l == null) {
            return false;
        }
        if (l.equals(u)) {
            return true;
        }
        if (u.isAnyLocalAddress()) {
            return l.isAnyLocalAddress() || l.isLoopbackAddress(); // a dial to the wildcard goes to loopback
        }
        if (!l.isAnyLocalAddress()) {
            return false;
        }
        try {
            return u.isLoopbackAddress() || NetworkInterface.getByInetAddress(u) != null;
        } catch (SocketException e) {
            return false; // interfaces unreadable: not known to be ours
        }
    }

    /** {@link #start(GoRuntime, ProxyConfig, ProxyLog)} on the default runtime, logging to standard output. */
    public static ProxyServer start(ProxyConfig cfg) throws IOException {
        return start(GoRuntime.defaultRuntime(), cfg, ProxyLog.printing(System.out));
    }

    /** The address it listens on (with the port the system chose for port 0). */
    public InetSocketAddress address() {
        return listener.address();
    }

    /** Its configuration. */
    public ProxyConfig config() {
        return cfg;
    }

    /** The counters now; exact once no connection is open. */
    public ProxyStats stats() {
        return counters.snapshot();
    }

    /**
     * Stops accepting, closes every open connection on both sides and waits until their
     * goroutines have ended. Idempotent; callable from any thread, including a shutdown hook.
     */
    @Override
    public void close() {
        beginClose();
        awaitStopped(CLOSE_WAIT);
    }

    /** Waits until the server has stopped (after {@link #close}); false if it has not after {@code d}. */
    public boolean awaitStopped(Duration d) {
        try {
            return stopped.await(d.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private void beginClose() {
        synchronized (closeLock) {
            if (closing) {
                return;
            }
            closing = true;
        }
        listener.close(); // first: a slot freed below must not let a waiting client in
        quit.close();
        for (Session s : open) {
            s.abort(Outcome.SHUTDOWN, "proxy shutting down");
        }
    }

    private void acceptLoop() {
        long ids = 0;
        AcceptBackoff backoff = new AcceptBackoff(quit);
        try {
            while (true) {
                Conn c;
                try {
                    c = listener.accept();
                } catch (NetClosedException e) {
                    return;
                } catch (IOException e) { // out of file descriptors: wait for some to close
                    Duration d = backoff.next();
                    log.acceptFailed(e, d);
                    if (!backoff.pause(d)) {
                        return; // closing
                    }
                    continue;
                }
                backoff.reset();
                Session s = new Session(++ids, c, upstreams, counters, cfg.idleTimeout());
                counters.active.increment(); // before total: see Counters.snapshot
                counters.total.increment();
                running.add(1);
                open.add(s);
                // beginClose sets closing, then aborts what is in open; we add to open, then read
                // closing: one of the two sees the other, so no session escapes the shutdown.
                if (closing) {
                    s.abort(Outcome.SHUTDOWN, "proxy shutting down");
                }
                rt.go(() -> serve(s));
            }
        } finally {
            beginClose(); // the listener closed under us (the runtime shut down): stop the rest too
            running.await();
            stopped.countDown();
        }
    }

    /** A connection's goroutine: serves it, then counts and logs how it ended. */
    private void serve(Session s) {
        ConnRecord r = null;
        try {
            r = s.run();
        } finally {
            open.remove(s);
            if (r != null) {
                switch (r.outcome()) {
                    case IDLE -> counters.idleTimeouts.increment();
                    case ERROR, NO_UPSTREAM -> counters.errors.increment();
                    case EOF, SHUTDOWN -> {
                    }
                }
            }
            counters.active.decrement(); // before the log: once a record is logged, the counters include it
            try {
                if (r != null) {
                    log.connectionClosed(r);
                }
            } finally {
                running.done();
            }
        }
    }

    private void statsLoop() {
        Ticker ticker = Time.newTicker(cfg.statsInterval());
        Select s = new Select();
        try {
            while (true) {
                s.reset();
                s.recv(ticker.c());
                int q = s.recv(quit);
                if (s.select() == q) {
                    return;
                }
                log.stats(counters.snapshot());
            }
        } finally {
            ticker.stop();
            running.done();
        }
    }
}
