package io.gmp4j.vertx;

import io.gmp4j.GoRuntime;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.ServerWebSocket;
import io.vertx.core.http.WebSocketBase;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketConnectOptions;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * A Vert.x WebSocket for goroutines, in blocking style: {@link #read} or {@link #readText} the
 * next whole message, {@link #writeText} or {@link #writeBinary} (or a batch of text messages:
 * {@link #writeTexts}), {@link #close}.
 *
 * <pre>{@code
 * HttpServer server = vertx.createHttpServer()
 *         .webSocketHandler(GoWebSocket.handler(ws -> {      // one goroutine per connection
 *             for (String line; (line = ws.readText()) != null; ) {
 *                 ws.writeText("echo: " + line);
 *             }
 *         }));
 * Await.await(server.listen(8080));
 * }</pre>
 *
 * <h2>Backpressure</h2>
 * Reading: the messages Vert.x delivers wait in a bounded inbox ({@value #DEFAULT_INBOX}
 * messages unless told otherwise); when it is full the socket is paused (Vert.x stops reading
 * it, and TCP slows the peer), and it resumes when the reader has taken half of them. Writing:
 * a write hands the message to Vert.x and, while the socket's {@code writeQueueFull()} holds
 * (the peer does not read fast enough), parks the writer until the socket's drain; a batch
 * ({@link #writeTexts}) is handed over whole and the queue looked at after it, so a writer holds
 * at most one batch beyond that bound. So neither side buffers without bound, whatever the peer
 * does.
 *
 * <h2>Ends</h2>
 * A read returns null once the socket closed (a close frame from either side, or a lost
 * connection) and every message received before was read: the end of the stream, as
 * {@code BufferedReader.readLine} gives it. A write or a close of a socket that closed throws
 * {@link WebSocketClosedException}; {@link #close} of a closed socket does nothing.
 * {@link #closeStatusCode} tells a clean close (the peer's status code) from a lost connection
 * (null).
 *
 * <h2>Threads</h2>
 * One goroutine (or thread) reads at a time, and one writes at a time; the reader and the
 * writer may be two goroutines. The blocking methods refuse a Vert.x event loop
 * ({@link IllegalStateException}), where they would block the loop.
 */
public final class GoWebSocket {
    /** The messages held for the reader before the socket is paused, unless told otherwise. */
    public static final int DEFAULT_INBOX = 64;

    static final String READ_REASON = "websocket read";
    static final String WRITE_REASON = "websocket write";

    /**
     * One whole WebSocket message (its frames joined).
     *
     * @param isText true for a text message, false for a binary one
     * @param data   the payload (UTF-8 for a text message)
     */
    public record Message(boolean isText, Buffer data) {
        /** The payload decoded as UTF-8 (a text message's text). */
        public String text() {
            return data.toString(StandardCharsets.UTF_8);
        }
    }

    private final WebSocketBase ws;
    private final Context context;
    private final Inbox<Message> inbox;
    private final WriteGate gate = new WriteGate();
    /** Set by the close handler on the socket's event loop. */
    private volatile boolean closed;
    /** Set by the writer that closes this side. */
    private volatile boolean closing;

    private GoWebSocket(WebSocketBase ws, Context context, int inboxSize) {
        this.ws = ws;
        this.context = context;
        this.inbox = new Inbox<>(inboxSize, ws::pause, () -> context.runOnContext(v -> ws.resume()));
        ws.textMessageHandler(s -> inbox.offer(new Message(true, Buffer.buffer(s))));
        ws.binaryMessageHandler(b -> inbox.offer(new Message(false, b)));
        ws.drainHandler(v -> gate.drained());
        ws.exceptionHandler(t -> {
            // A failed frame or a protocol error: Vert.x closes the socket itself where it must,
            // and the close handler below ends the reader and the writer.
        });
        // The end of the messages is the close frame's place among them (the end handler runs
        // after every message before it). The close handler runs when the connection closes,
        // possibly while the paused socket still holds messages: those are delivered first (the
        // socket is resumed, and the inbox no longer pauses it), then the inbox ends, also for
        // a connection lost without a close frame.
        ws.endHandler(v -> inbox.end());
        ws.closeHandler(v -> {
            closed = true;
            gate.close();
            inbox.stopPausing();
            try {
                ws.resume();
            } catch (RuntimeException gone) {
                // nothing held: the end below follows at once
            }
            context.runOnContext(x -> inbox.end());
        });
    }

    /**
     * A server WebSocket handler that runs {@code body} in a new goroutine per connection (in
     * the runtime of the caller: the default runtime when the caller is not a goroutine), with
     * an inbox of {@value #DEFAULT_INBOX} messages. When {@code body} returns the socket is
     * closed (status 1000); when it throws, the exception is reported (to the Vert.x instance's
     * {@link Vertx#exceptionHandler()} if it has one, else to stderr) and the socket is closed
     * with status 1011, as Go's net/http recovers a handler's panic.
     *
     * @param body what a connection's goroutine runs
     * @return the handler, for {@code HttpServer.webSocketHandler}
     */
    public static Handler<ServerWebSocket> handler(Consumer<GoWebSocket> body) {
        return handler(null, DEFAULT_INBOX, body);
    }

    /**
     * {@link #handler(Consumer)} in the runtime {@code rt} with an inbox of {@code inbox} messages.
     *
     * @param rt    the runtime of the goroutines; null: the caller's (the default one outside a goroutine)
     * @param inbox the messages held for the reader before the socket is paused, at least 1
     * @param body  what a connection's goroutine runs
     * @return the handler, for {@code HttpServer.webSocketHandler}
     */
    public static Handler<ServerWebSocket> handler(GoRuntime rt, int inbox, Consumer<GoWebSocket> body) {
        return Handlers.goroutinePerStream(rt, inbox, body, GoWebSocket::new, GoWebSocket::run);
    }

    /**
     * Wraps a WebSocket that is not yet read (a server socket in its handler, a client socket
     * in the callback of its connect), with an inbox of {@code inbox} messages. Call it on the
     * socket's context before the callback returns, so that no message arrives unhandled; it
     * takes over the socket's message, drain, exception, end and close handlers.
     *
     * @param ws    the socket
     * @param inbox the messages held for the reader before the socket is paused, at least 1
     * @return the blocking-style socket
     * @throws IllegalStateException when called off a Vert.x context
     */
    public static GoWebSocket wrap(WebSocketBase ws, int inbox) {
        Objects.requireNonNull(ws, "ws");
        Handlers.checkInbox(inbox);
        return new GoWebSocket(ws, Handlers.requireContext("GoWebSocket.wrap"), inbox);
    }

    /**
     * Connects {@code client} and waits for the handshake (from a goroutine or a thread, as
     * {@link Await#await} waits), with an inbox of {@value #DEFAULT_INBOX} messages.
     *
     * @param client  the Vert.x WebSocket client
     * @param options where to connect
     * @return the connected socket
     * @throws RuntimeException the connect's failure, as {@link Await#await} gives it
     */
    public static GoWebSocket connect(WebSocketClient client, WebSocketConnectOptions options) {
        return connect(client, options, DEFAULT_INBOX);
    }

    /**
     * {@link #connect(WebSocketClient, WebSocketConnectOptions)} with an inbox of {@code inbox} messages.
     *
     * @param client  the Vert.x WebSocket client
     * @param options where to connect
     * @param inbox   the messages held for the reader before the socket is paused, at least 1
     * @return the connected socket
     * @throws RuntimeException the connect's failure, as {@link Await#await} gives it
     */
    public static GoWebSocket connect(WebSocketClient client, WebSocketConnectOptions options, int inbox) {
        Objects.requireNonNull(client, "client");
        Objects.requireNonNull(options, "options");
        Handlers.checkInbox(inbox);
        Await.checkMayBlock("GoWebSocket.connect");
        // The mapping runs on the socket's event loop as the connect completes, before its
        // first message can be delivered.
        return Await.await(client.connect(options).map(ws -> wrap(ws, inbox)));
    }

    private void run(Consumer<GoWebSocket> body) {
        try {
            body.accept(this);
        } catch (Throwable t) {
            Handlers.report(context, "the WebSocket handler of " + ws.remoteAddress(), t);
            closeQuietly((short) 1011, "internal error");
            return;
        }
        closeQuietly((short) 1000, null);
    }

    private void closeQuietly(short status, String reason) {
        try {
            close(status, reason);
        } catch (RuntimeException ignored) {
            // the socket is gone already: nothing left to close
        }
    }

    /**
     * The next whole message, parking while none has arrived; null once the socket closed and
     * every message received before the close was read.
     *
     * @return the message, or null at the end
     * @throws IllegalStateException on a Vert.x event loop, or when another thread is reading
     */
    public Message read() {
        Await.checkMayBlock("GoWebSocket.read");
        return inbox.take(READ_REASON);
    }

    /**
     * The next whole message as text, parking while none has arrived; null at the end (see
     * {@link #read}).
     *
     * @return the text, or null at the end
     * @throws IllegalStateException when the message is binary (it is consumed), on a Vert.x
     *                               event loop, or when another thread is reading
     */
    public String readText() {
        Message m = read();
        if (m == null) {
            return null;
        }
        if (!m.isText()) {
            throw new IllegalStateException("GoWebSocket.readText: a binary message of "
                    + m.data().length() + " bytes came (read() takes either kind)");
        }
        return m.text();
    }

    /**
     * Sends one text message: hands it to Vert.x, then parks while Vert.x's write queue for the
     * socket is full (until the drain, or the close: the next write then throws).
     *
     * @param text the message
     * @throws WebSocketClosedException when the socket is closed (the message is not sent)
     * @throws IllegalStateException    on a Vert.x event loop
     */
    public void writeText(String text) {
        Objects.requireNonNull(text, "text");
        writeMessage("GoWebSocket.writeText", text, null);
    }

    /**
     * Sends one binary message: hands it to Vert.x, then parks while Vert.x's write queue for
     * the socket is full (until the drain, or the close: the next write then throws).
     *
     * @param data the message
     * @throws WebSocketClosedException when the socket is closed (the message is not sent)
     * @throws IllegalStateException    on a Vert.x event loop
     */
    public void writeBinary(Buffer data) {
        Objects.requireNonNull(data, "data");
        writeMessage("GoWebSocket.writeBinary", null, data);
    }

    /**
     * The one message of {@link #writeText} ({@code text}) or else {@link #writeBinary}
     * ({@code data}), for the public method {@code caller}: hands it to Vert.x, then waits as
     * {@link #afterWrite} does.
     */
    private void writeMessage(String caller, String text, Buffer data) {
        Await.checkMayBlock(caller);
        Future<Void> f;
        try {
            f = text != null ? ws.writeTextMessage(text) : ws.writeBinaryMessage(data);
        } catch (IllegalStateException e) {
            throw closed("write", e);
        }
        afterWrite(f);
    }

    /**
     * Sends {@code texts} as text messages, one per element and in their order: hands them all
     * to Vert.x, then parks while Vert.x's write queue for the socket is full (until the drain,
     * or the close: the next write then throws). The queue is looked at once per batch, not once
     * per message: the batch's messages reach Vert.x back to back, so its event loop writes most
     * of them in one drain with one flush (one system call), where a wait after each message
     * would hand them over one drain at a time once the queue is at its mark. What this socket
     * holds beyond Vert.x's write-queue bound is at most one batch, whatever the peer does.
     *
     * @param texts the messages (the list is not kept; an empty one sends nothing)
     * @throws WebSocketClosedException when the socket is closed (a close while the batch is
     *                                  handed over drops the rest of it, as the close drops what
     *                                  Vert.x queued)
     * @throws IllegalStateException    on a Vert.x event loop
     */
    public void writeTexts(List<String> texts) {
        Objects.requireNonNull(texts, "texts");
        Await.checkMayBlock("GoWebSocket.writeTexts");
        Future<Void> last = null;
        try {
            for (String t : texts) {
                last = ws.writeTextMessage(Objects.requireNonNull(t, "texts holds a null"));
                if (last.failed()) {
                    break;
                }
            }
        } catch (IllegalStateException e) {
            throw closed("write", e);
        }
        if (last != null) {
            afterWrite(last);
        }
    }

    /** After a hand-over whose last write is {@code f}: throws if it failed, else parks while the queue is full. */
    private void afterWrite(Future<Void> f) {
        if (f.failed()) { // a socket already closed fails the write at once
            throw closed("write", f.cause());
        }
        // The message is Vert.x's now. A close while the writer waits for the drain ends the
        // wait: the next write reports it.
        gate.awaitWritable(this::writeQueueFull, WRITE_REASON);
    }

    /** The socket's writeQueueFull, false once it closed (the gate then reports the close). */
    private boolean writeQueueFull() {
        try {
            return ws.writeQueueFull();
        } catch (IllegalStateException closedAlready) {
            gate.close();
            return false;
        }
    }

    /**
     * Closes the socket with status 1000 and waits until it is closed. Does nothing when it is
     * closed already.
     *
     * @throws IllegalStateException on a Vert.x event loop
     */
    public void close() {
        close((short) 1000, null);
    }

    /**
     * Closes the socket with {@code statusCode} and {@code reason} and waits until it is closed.
     * Does nothing when it is closed already. A reader still parked then gets null.
     *
     * @param statusCode the close frame's status code (1000: normal)
     * @param reason     the close frame's reason, or null
     * @throws IllegalStateException on a Vert.x event loop
     */
    public void close(short statusCode, String reason) {
        Await.checkMayBlock("GoWebSocket.close");
        if (closed) {
            return;
        }
        closing = true;
        try {
            Await.await(reason == null ? ws.close(statusCode) : ws.close(statusCode, reason));
        } catch (RuntimeException e) {
            if (!closed && !ws.isClosed()) {
                throw closed("close", e);
            }
        }
    }

    /** True once the socket is closed, by either side or by the loss of the connection. */
    public boolean isClosed() {
        return closed || ws.isClosed();
    }

    /** The status code of the peer's close frame, or null (open, closed by this side first, or lost). */
    public Short closeStatusCode() {
        return ws.closeStatusCode();
    }

    /** The reason of the peer's close frame, or null. */
    public String closeReason() {
        return ws.closeReason();
    }

    /**
     * The Vert.x socket underneath, for what this class does not wrap (headers, path, addresses).
     * Its message, drain, exception, end and close handlers belong to this object.
     */
    public WebSocketBase socket() {
        return ws;
    }

    private WebSocketClosedException closed(String what, Throwable cause) {
        String by = closing ? "closed by this side" : "closed";
        return new WebSocketClosedException("WebSocket " + what + ": the socket to "
                + ws.remoteAddress() + " is " + by, ws.closeStatusCode(), ws.closeReason(), cause);
    }

    /** The reader's inbox (tests: its high-water mark and pauses). */
    Inbox<Message> inbox() {
        return inbox;
    }

    /** The writer's gate (tests: how often it waited for a drain). */
    WriteGate gate() {
        return gate;
    }
}
