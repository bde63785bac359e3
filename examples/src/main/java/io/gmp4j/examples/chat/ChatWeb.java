package io.gmp4j.examples.chat;

import io.gmp4j.GoRuntime;
import io.gmp4j.chan.Select;
import io.gmp4j.vertx.Await;
import io.gmp4j.vertx.GoWebSocket;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A {@link ChatServer}'s web side, on a Vert.x of its own: the browser page ({@link WebPage}, on
 * the event loops) and WebSocket users at {@value #WS_PATH}, each one more {@link Client} of the
 * same hub ({@link WsLink}; one text message per line both ways), so TCP and browser users share
 * rooms, nicknames, {@code /who} and {@code /msg}, and the limits and the slow-client policy
 * hold for both alike. A WebSocket's goroutines are the connection's ({@link GoWebSocket#handler}:
 * the pump of {@link WsLink}), its reader and its writer, all in the chat's runtime.
 *
 * <p>A message longer than {@link #maxMessage} bytes is refused by Vert.x, which closes the
 * connection (status 1009); one up to that size but over the line limit is refused politely,
 * as on TCP, and the connection stays.
 */
final class ChatWeb implements AutoCloseable {
    /** Where the page opens its WebSocket. */
    static final String WS_PATH = "/ws";

    private final Vertx vertx;
    private final HttpServer http;
    private final String host;
    private final AtomicBoolean closed = new AtomicBoolean();

    private ChatWeb(Vertx vertx, HttpServer http, String host) {
        this.vertx = vertx;
        this.http = http;
        this.host = host;
    }

    /** The largest WebSocket message Vert.x takes for lines of at most {@code maxLine} bytes. */
    static int maxMessage(int maxLine) {
        return Math.max(64 * 1024, maxLine * 4);
    }

    /**
     * Serves the page and WebSockets on {@code address} ({@code host:port}; port 0: a free one)
     * for {@code hub}, with {@code rt}'s goroutines and as many event loops as it has Ps.
     *
     * @throws IOException whose message starts with {@code "web "}: the address is bad or taken
     */
    static ChatWeb start(GoRuntime rt, Hub hub, ChatConfig cfg, String address) throws IOException {
        int colon = address.lastIndexOf(':');
        int port;
        try {
            port = Integer.parseInt(address.substring(colon + 1));
        } catch (NumberFormatException | IndexOutOfBoundsException e) {
            throw new IOException("web " + address + ": not host:port");
        }
        String host = colon <= 0 ? "127.0.0.1" : address.substring(0, colon);
        WebPage page = WebPage.load();
        Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(Math.max(1, rt.gomaxprocs()))
                .setPreferNativeTransport(true));
        HttpServerOptions o = new HttpServerOptions().setHost(host).setPort(port).setTcpNoDelay(true)
                .setMaxWebSocketFrameSize(maxMessage(cfg.maxLine())).setMaxWebSocketMessageSize(maxMessage(cfg.maxLine()));
        HttpServer http = vertx.createHttpServer(o)
                .requestHandler(page::handle)
                .webSocketHandshakeHandler(h -> {
                    if (h.path().equals(WS_PATH)) {
                        h.accept();
                    } else {
                        h.reject(404);
                    }
                })
                .webSocketHandler(GoWebSocket.handler(rt, GoWebSocket.DEFAULT_INBOX, ws -> serve(rt, hub, cfg, ws)));
        try {
            Await.await(http.listen());
        } catch (RuntimeException e) {
            Await.await(vertx.close());
            throw new IOException("web " + address + ": cannot listen: " + (e.getCause() != null ? e.getCause() : e).getMessage(), e);
        }
        return new ChatWeb(vertx, http, host);
    }

    /** A WebSocket's goroutine: a client of the hub, its reader and writer started, then the pump. */
    private static void serve(GoRuntime rt, Hub hub, ChatConfig cfg, GoWebSocket ws) {
        WsLink link = new WsLink(ws, cfg.maxLine());
        Client c = new Client(link, cfg.queue());
        if (Acceptor.serve(hub, rt, c, new Select())) {
            rt.go(() -> {
                try {
                    c.readLoop(hub, cfg);
                } finally {
                    hub.conns.done();
                }
            });
        }
        link.pump(); // until the socket has ended (at once when serve closed it)
    }

    /** Where it listens. */
    InetSocketAddress address() {
        return new InetSocketAddress(host, http.actualPort());
    }

    /** Stops the server and its Vert.x (what connections are left are closed). Idempotent. */
    @Override
    public void close() {
        if (closed.compareAndSet(false, true)) {
            Await.await(vertx.close(), Duration.ofSeconds(30));
        }
    }
}
