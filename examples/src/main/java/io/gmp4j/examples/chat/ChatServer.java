package io.gmp4j.examples.chat;

import io.gmp4j.GoRuntime;
import io.gmp4j.chan.Chan;
import io.gmp4j.examples.AcceptBackoff;
import io.gmp4j.examples.chat.ChatConfig.SlowPolicy;
import io.gmp4j.net.Listener;
import io.gmp4j.net.Net;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * A line-based chat server on goroutines: nicknames, rooms, private messages.
 * This class is its public face: it opens the listener, starts the hub ({@code Hub}: the
 * goroutine owning nicknames and rooms, the commands and the fan-out) and the acceptor
 * ({@code Acceptor}: the acceptor and reader goroutines), and stops them; {@code Client} is a
 * connection and its writer, {@link ChatConfig} the limits.
 *
 * <h2>Goroutines</h2>
 * <ul>
 * <li>an <b>acceptor</b> ({@link Listener#accept} in a loop) that starts two goroutines per
 *     connection; an accept that fails while the listener is open (out of descriptors) is
 *     logged to stderr and tried again after a back-off ({@link AcceptBackoff}: 5 ms doubling
 *     up to 1 s, cut short by {@link #close});</li>
 * <li>a <b>reader</b> per connection: reads lines ({@link LineIn}) and posts each to the hub;
 *     it never writes. Each line touches the client's idle watchdog
 *     ({@link io.gmp4j.examples.IdleWatchdog}), whose timer tells the hub when the client has
 *     been quiet for the idle timeout;</li>
 * <li>a <b>writer</b> per connection, fed by a bounded channel ({@link ChatConfig#queue} lines):
 *     it takes whatever is queued (up to 64 KiB), writes it as one batch and waits again only
 *     when the channel is empty, so a busy room costs one socket write per batch, not one per
 *     line;</li>
 * <li>one <b>hub</b> that owns every piece of state (nicknames, rooms, members), selecting
 *     over the event channel and the quit channel.</li>
 * </ul>
 *
 * <h2>Why a hub and not rooms as actors</h2>
 * Half the commands cross rooms: nicknames are unique server-wide ({@code /nick}, the login),
 * {@code /msg} reaches a nick in any room, {@code /join} moves a member from one room to
 * another, {@code /rooms} lists them all. With one goroutine owning all of it each command is
 * a plain map operation, atomic by construction, with no registry shared between room actors
 * and no two-room handshake for {@code /join}. What it costs: one goroutine does every
 * fan-out, so a single busy room cannot use more than one core for routing; the hub only
 * hands lines to per-client channels ({@link Chan#trySend}, never blocking), and the writers,
 * which do the socket work and the UTF-8 encoding, run on every P.
 *
 * <h2>Slow clients</h2>
 * The hub never waits for a client: {@link Chan#trySend} either queues a line or finds the
 * client's outbound channel full, and then {@link ChatConfig#slowPolicy} decides:
 * <ul>
 * <li>{@link SlowPolicy#DISCONNECT} (the default): the client is disconnected on the spot (its
 *     connection closed, which also wakes its writer parked on the full socket) and the room is
 *     told {@code *** nick was disconnected: too slow}. The slow client itself cannot be told
 *     in-band (its pipe is what is full); what it had been sent before is still delivered for a
 *     few seconds.</li>
 * <li>{@link SlowPolicy#DROP}: the client stays; every line for it is dropped while its channel
 *     is full, and counted (per client: {@link #droppedFor}; in total: {@link #dropped()} and
 *     the {@link #summary()}). As soon as its writer takes lines off the channel it tells the
 *     hub, which queues one notice {@code *** N lines dropped: you are reading too slowly}
 *     before any new line, so the client sees exactly where its gap is. The room is not told.</li>
 * </ul>
 * Either way the rest of the room never slows down.
 *
 * <h2>Limits</h2>
 * Line length (longer lines are refused with a notice and the connection stays), clients
 * (one more gets "server full" and is closed), idle time (the watchdog: the client is told
 * {@code *** idle for 5m, disconnecting} and its connection ends), outbound queue.
 * Invalid UTF-8 becomes U+FFFD.
 *
 * <h2>In a browser</h2>
 * Started with a web address ({@code ./gmp4j run chat} serves {@code http://127.0.0.1:8080/}),
 * it also serves a page over HTTP whose users join over a WebSocket ({@code ChatWeb}): each is
 * one more client of the hub ({@code WsLink}: one text message per line both ways), with its
 * reader and writer goroutines like a TCP client's.
 *
 * <h2>Clustered</h2>
 * Started with a {@link ClusterBridge} ({@code ./gmp4j run chat --cluster}), the server is one
 * node of a chat cluster: the hub still owns only its own clients, and the bridge, called on
 * the hub goroutine, adds the other nodes' users to {@code /who}, {@code /rooms} and
 * {@code /msg}, claims nicknames cluster-wide, and tells the other nodes of its users' joins,
 * leaves and lines.
 *
 * <h2>Shutdown</h2>
 * {@link #close()}: the listener stops, every client gets {@code *** server shutting down,
 * goodbye} and a FIN once its queue is written; connections the clients have not closed after
 * {@link ChatConfig#grace} are closed by the server.
 */
public final class ChatServer implements AutoCloseable {
    private final ChatConfig cfg;
    private final Listener listener;
    private final Hub hub;
    /** The page and the WebSocket users; null when not served. */
    private final ChatWeb web;
    private final Object closeLock = new Object();
    private boolean closing;

    private ChatServer(ChatConfig cfg, Listener listener, Hub hub, ChatWeb web) {
        this.cfg = cfg;
        this.listener = listener;
        this.hub = hub;
        this.web = web;
    }

    /**
     * Listens on {@code address} ({@code "127.0.0.1:0"} for a free port) with goroutines of
     * {@code rt}, and serves until {@link #close()}.
     */
    public static ChatServer start(GoRuntime rt, String address, ChatConfig cfg) throws IOException {
        return start(rt, address, null, cfg, null);
    }

    /**
     * {@link #start(GoRuntime, String, ChatConfig)}, and serves the browser page and its
     * WebSocket users ({@code /ws}, one text message per line) over HTTP on {@code webAddress}
     * ({@code "127.0.0.1:0"} for a free port; null: no web side), in the same rooms as the TCP
     * users.
     */
    public static ChatServer start(GoRuntime rt, String address, String webAddress, ChatConfig cfg) throws IOException {
        return start(rt, address, webAddress, cfg, null);
    }

    /**
     * {@link #start(GoRuntime, String, String, ChatConfig)} as one node of a chat cluster:
     * {@code cluster} (null: on its own) joins this server's rooms to the other nodes'.
     */
    static ChatServer start(GoRuntime rt, String address, String webAddress, ChatConfig cfg, ClusterBridge cluster)
            throws IOException {
        CompletableFuture<Listener> l = new CompletableFuture<>();
        rt.go(() -> { // the listener belongs to the runtime of the goroutine that opens it
            try {
                l.complete(Net.listen(address));
            } catch (Throwable t) {
                l.completeExceptionally(t);
            }
        });
        Listener listener;
        try {
            listener = l.get(30, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            throw new IOException("listen " + address, e.getCause());
        } catch (Exception e) {
            throw new IOException("listen " + address, e);
        }
        Hub hub = new Hub(rt, cfg, cluster);
        // The web side before the cluster: a taken web port must fail before this node has
        // joined (a caller may then try another port with the same bridge). Its WebSockets
        // post to the hub, which reads them once it runs.
        ChatWeb web = null;
        if (webAddress != null) {
            try {
                web = ChatWeb.start(rt, hub, cfg, webAddress);
            } catch (IOException | RuntimeException e) {
                listener.close();
                throw e;
            }
        }
        if (cluster != null) {
            try {
                cluster.attach(hub, rt);
            } catch (RuntimeException e) {
                listener.close();
                hub.quit.close(); // a WebSocket that came in meanwhile is refused
                if (web != null) {
                    web.close();
                }
                throw new IOException("join the chat cluster: " + e.getMessage(), e);
            }
        }
        rt.go(hub::run);
        rt.go(new Acceptor(hub, rt, listener, cfg, hub.quit)::acceptLoop);
        return new ChatServer(cfg, listener, hub, web);
    }

    /** The address it listens on. */
    public InetSocketAddress address() {
        return listener.address();
    }

    /** The address the page and the WebSockets are served on; null when they are not. */
    public InetSocketAddress webAddress() {
        return web == null ? null : web.address();
    }

    /**
     * Stops accepting, says goodbye to every client and waits (at most the grace period plus a
     * few seconds) until every connection is closed. Idempotent; callable from any thread,
     * including a shutdown hook.
     */
    @Override
    public void close() {
        synchronized (closeLock) {
            if (!closing) {
                closing = true;
                listener.close();
                hub.quit.close();
            }
        }
        awaitStopped(cfg.grace().plusSeconds(10));
        if (web != null) {
            web.close(); // after every goodbye: what is still open is closed with it
        }
    }

    /** Waits until the server has stopped; false if it has not after {@code d}. */
    public boolean awaitStopped(Duration d) {
        try {
            hub.stopped.get(d.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (java.util.concurrent.TimeoutException e) {
            return false;
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException("the hub failed", e.getCause()); // it never completes exceptionally
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Counters, readable once stopped: clients served, lines delivered, clients disconnected as
     * too slow and lines dropped for slow clients.
     */
    public String summary() {
        return hub.summary();
    }

    /** Lines dropped for clients whose queue was full, all clients together (read it once stopped). */
    public long dropped() {
        return hub.dropped();
    }

    /**
     * Lines dropped so far for the client now called {@code nick} (under {@link SlowPolicy#DROP};
     * always 0 under {@code DISCONNECT}), counted since it connected, reported to it or not. Asks
     * the hub, so it is exact at the moment the hub answers; callable from any thread while the
     * server runs.
     *
     * @throws IllegalArgumentException no client has that nickname
     * @throws IllegalStateException    the server is stopping
     */
    public long droppedFor(String nick) {
        return hub.droppedFor(nick);
    }

    /** Lines queued to clients (hub-owned: read it once stopped). */
    public long delivered() {
        return hub.delivered();
    }

    /** Socket writes so far (a write carries every line that was queued): exact once stopped. */
    public long writes() {
        return hub.writes.sum();
    }
}
