package io.gmp4j.vertx;

import io.gmp4j.GoRuntime;
import io.vertx.core.Context;
import io.vertx.core.Handler;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import io.vertx.core.http.HttpServerResponse;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * One HTTP request handled by its own goroutine, in blocking style: {@link #read} the body chunk
 * by chunk (or {@link #body} it whole), {@link #write} the response, {@link #end} it.
 *
 * <pre>{@code
 * vertx.createHttpServer().requestHandler(GoRequest.handler(req -> {   // one goroutine per request
 *     Buffer in = req.body(1 << 20);                                  // parks while the body arrives
 *     req.response().putHeader("content-type", "text/plain");
 *     req.end("got " + in.length() + " bytes");
 * }));
 * }</pre>
 *
 * <h2>Backpressure</h2>
 * The body's chunks wait in a bounded inbox; when it is full the request is paused (Vert.x stops
 * reading the connection) and it resumes when the goroutine has taken half of them. A
 * {@link #write} parks while the response's {@code writeQueueFull()} holds, until its drain: a
 * client that reads slowly holds the goroutine, not memory.
 *
 * <h2>Ends</h2>
 * When the body returns the response is ended if it is not (status 200 and nothing more unless
 * set); when it throws, the exception is reported (to the Vert.x instance's
 * {@link Vertx#exceptionHandler()} if it has one, else to stderr) and the client gets a 500, or
 * the connection is closed when the response had begun, as Go's net/http does. The
 * blocking methods refuse a Vert.x event loop ({@link IllegalStateException}).
 */
public final class GoRequest {
    /** The body chunks held for the goroutine before the request is paused, unless told otherwise. */
    public static final int DEFAULT_INBOX = 16;

    private final HttpServerRequest request;
    private final HttpServerResponse response;
    private final Context context;
    private final Inbox<Buffer> inbox;
    private final WriteGate gate = new WriteGate();
    /** The body's failure (a connection lost mid-body), set on the event loop before the inbox ends. */
    private volatile Throwable failure;

    private GoRequest(HttpServerRequest request, Context context, int inboxSize) {
        this.request = request;
        this.response = request.response();
        this.context = context;
        this.inbox = new Inbox<>(inboxSize, request::pause, () -> context.runOnContext(v -> request.resume()));
        request.handler(inbox::offer);
        request.endHandler(v -> inbox.end());
        request.exceptionHandler(t -> {
            failure = t;
            inbox.end();
        });
        response.drainHandler(v -> gate.drained());
        response.closeHandler(v -> {
            gate.close();
            inbox.end();
        });
    }

    /**
     * A request handler that runs {@code body} in a new goroutine per request (in the runtime of
     * the caller: the default runtime when the caller is not a goroutine), with an inbox of
     * {@value #DEFAULT_INBOX} body chunks.
     *
     * @param body what a request's goroutine runs
     * @return the handler, for {@code HttpServer.requestHandler}
     */
    public static Handler<HttpServerRequest> handler(Consumer<GoRequest> body) {
        return handler(null, DEFAULT_INBOX, body);
    }

    /**
     * {@link #handler(Consumer)} in the runtime {@code rt} with an inbox of {@code inbox} chunks.
     *
     * @param rt    the runtime of the goroutines; null: the caller's (the default one outside a goroutine)
     * @param inbox the body chunks held before the request is paused, at least 1
     * @param body  what a request's goroutine runs
     * @return the handler, for {@code HttpServer.requestHandler}
     */
    public static Handler<HttpServerRequest> handler(GoRuntime rt, int inbox, Consumer<GoRequest> body) {
        return Handlers.goroutinePerStream(rt, inbox, body, GoRequest::new, GoRequest::run);
    }

    private void run(Consumer<GoRequest> body) {
        try {
            body.accept(this);
        } catch (Throwable t) {
            discardRest();
            Handlers.report(context, "the handler of " + request.method() + " " + request.uri(), t);
            try {
                if (!response.headWritten() && !response.ended()) {
                    response.setStatusCode(500).end();
                } else if (!response.ended()) {
                    request.connection().close();
                }
            } catch (RuntimeException gone) {
                // the connection is gone already
            }
            return;
        }
        discardRest();
        if (!response.ended() && !response.closed()) {
            try {
                response.end();
            } catch (IllegalStateException gone) {
                // closed by the client meanwhile: nothing to end
            }
        }
    }

    /**
     * The handler is done with a body it did not read to its end: Vert.x reads and drops the
     * rest (a paused request would hold the connection), as Go's net/http discards it.
     */
    private void discardRest() {
        if (!inbox.ended()) {
            context.runOnContext(v -> {
                if (!request.isEnded()) { // on the loop: the end may have come since the check
                    request.handler(b -> { });
                    request.resume();
                }
            });
        }
    }

    /** The Vert.x request: method, path, headers, parameters. Its data, end and exception handlers belong to this object. */
    public HttpServerRequest request() {
        return request;
    }

    /** The Vert.x response, for its status and headers. Its drain and close handlers belong to this object. */
    public HttpServerResponse response() {
        return response;
    }

    /**
     * The next chunk of the request's body, parking while none has arrived; null at its end.
     *
     * @return the chunk, or null once the whole body was read
     * @throws IllegalStateException when the body failed (the connection was lost before its
     *                               end; the cause is Vert.x's exception), on a Vert.x event
     *                               loop, or when another thread is reading
     */
    public Buffer read() {
        Await.checkMayBlock("GoRequest.read");
        Buffer b = inbox.take("http body read");
        if (b == null && failure != null) {
            throw new IllegalStateException("request body of " + request.method() + " " + request.uri()
                    + " failed before its end: " + failure, failure);
        }
        return b;
    }

    /**
     * The request's whole body (what is left of it), parking while it arrives.
     *
     * @param maxBytes the most bytes accepted
     * @return the body
     * @throws IllegalStateException when the body is longer than {@code maxBytes} (what came is
     *                               discarded; respond 413) or failed (see {@link #read})
     */
    public Buffer body(int maxBytes) {
        if (maxBytes < 0) {
            throw new IllegalArgumentException("maxBytes must not be negative: " + maxBytes);
        }
        Buffer all = Buffer.buffer();
        for (Buffer b; (b = read()) != null; ) {
            if ((long) all.length() + b.length() > maxBytes) {
                throw new IllegalStateException("request body of " + request.method() + " " + request.uri()
                        + " is longer than " + maxBytes + " bytes");
            }
            all.appendBuffer(b);
        }
        return all;
    }

    /**
     * Writes a chunk of the response (chunked unless a content-length was set): hands it to
     * Vert.x, then parks while the response's write queue is full (until the drain, or the
     * close: the next write then throws).
     *
     * @param chunk the bytes
     * @throws IllegalStateException when the response ended or its connection closed, or on a
     *                               Vert.x event loop
     */
    public void write(Buffer chunk) {
        Objects.requireNonNull(chunk, "chunk");
        Await.checkMayBlock("GoRequest.write");
        if (response.closed()) {
            throw new IllegalStateException("response to " + request.method() + " " + request.uri()
                    + ": the connection is closed");
        }
        if (!response.headWritten() && !response.isChunked() && !response.headers().contains(HttpHeaders.CONTENT_LENGTH)) {
            response.setChunked(true);
        }
        response.write(chunk);
        // The chunk is Vert.x's now; a close while this waits for the drain ends the wait, and
        // the next write reports it.
        gate.awaitWritable(this::writeQueueFull, "http response write");
    }

    /**
     * Writes text as UTF-8; see {@link #write(Buffer)}.
     *
     * @param chunk the text
     */
    public void write(String chunk) {
        write(Buffer.buffer(Objects.requireNonNull(chunk, "chunk")));
    }

    private boolean writeQueueFull() {
        try {
            return response.writeQueueFull();
        } catch (IllegalStateException closedAlready) {
            gate.close();
            return false;
        }
    }

    /**
     * Ends the response and waits until Vert.x wrote it.
     *
     * @throws RuntimeException when Vert.x could not (the connection closed), as {@link Await#await} gives it
     */
    public void end() {
        Await.await(response.end());
    }

    /**
     * Ends the response with {@code text} (UTF-8) and waits until Vert.x wrote it.
     *
     * @param text the last of the body
     */
    public void end(String text) {
        Await.await(response.end(Objects.requireNonNull(text, "text")));
    }

    /**
     * Ends the response with {@code data} and waits until Vert.x wrote it.
     *
     * @param data the last of the body
     */
    public void end(Buffer data) {
        Await.await(response.end(Objects.requireNonNull(data, "data")));
    }

    /** The body's inbox (tests). */
    Inbox<Buffer> inbox() {
        return inbox;
    }

    /** The response writer's gate (tests). */
    WriteGate gate() {
        return gate;
    }
}
