package io.gmp4j.examples.chat;

import io.gmp4j.chan.Chan;
import io.gmp4j.chan.Select;
import io.gmp4j.vertx.GoWebSocket;
import io.gmp4j.vertx.WebSocketClosedException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A chat {@link Link} over a WebSocket ({@link GoWebSocket}): one text message per line both
 * ways. A message of more than {@code maxLine} bytes (UTF-8, as on TCP) is {@link LineIn#TOO_LONG};
 * control characters become U+FFFD as on TCP ({@link LineIn#clean}), a line break inside a
 * message included; a binary message is taken as UTF-8 text.
 *
 * <h2>Goroutines</h2>
 * The connection's goroutine (the {@link GoWebSocket#handler} body) runs {@link #pump}: it reads
 * the messages and hands each to {@link #in}, a small channel, until the socket ends. The
 * client's reader takes them from there in {@link #readLine}. The pump is
 * the only one that closes {@link #in}, once the socket has ended; after {@link #stop} it
 * keeps reading but drops what it reads (the reader may be gone), so it never parks on a
 * channel nobody reads, and the socket's end always reaches it. Backpressure is the socket's:
 * while the reader is slow {@link #in} is full, the pump parks, {@link GoWebSocket}'s inbox
 * fills and Vert.x stops reading the socket.
 *
 * <h2>Ends</h2>
 * {@link #end} and {@link #closeWrite} send a close frame after what was written (status 1000,
 * or 1001 at shutdown), and Vert.x closes the connection once it is written, without waiting
 * for the peer's answer; {@link #close} does the same at once with status 1000. None of them
 * waits, so the hub may call {@link #close}.
 */
final class WsLink implements Link {
    /** Lines read by the pump and not yet taken by the reader. */
    private static final int IN_FLIGHT = 16;

    private final GoWebSocket ws;
    private final int maxLine;
    private final String peer;
    private final Chan<String> in = new Chan<>(IN_FLIGHT);
    /** Closed by the first end, close or closeWrite: the pump feeds {@link #in} no more. */
    private final Chan<Void> stop = new Chan<>();
    private final AtomicBoolean stopped = new AtomicBoolean();

    WsLink(GoWebSocket ws, int maxLine) {
        this.ws = ws;
        this.maxLine = maxLine;
        this.peer = "ws " + ws.socket().remoteAddress();
    }

    /** The connection's goroutine: reads every message until the socket ends (see the class comment). */
    void pump() {
        Select p = new Select();
        boolean feeding = true;
        try {
            for (GoWebSocket.Message m; (m = ws.read()) != null; ) {
                if (!feeding) {
                    continue;
                }
                String line = m.data().length() > maxLine ? LineIn.TOO_LONG
                        : LineIn.clean(m.data().toString(StandardCharsets.UTF_8));
                p.reset();
                p.send(in, line);
                int st = p.recv(stop);
                if (p.select() == st) {
                    feeding = false;
                }
            }
        } finally {
            in.close();
        }
    }

    /** The next line the pump handed over; null once the socket has ended. */
    @Override
    public String readLine() {
        return in.recv();
    }

    /** The batch as one {@link GoWebSocket#writeTexts}: one text message per line, the drain awaited after the batch. */
    @Override
    public void write(Client.Wire[] lines, int n) throws IOException {
        String[] texts = new String[n];
        for (int i = 0; i < n; i++) {
            texts[i] = lines[i].text();
        }
        try {
            ws.writeTexts(Arrays.asList(texts));
        } catch (WebSocketClosedException e) {
            throw new IOException("write " + peer + ": " + e.getMessage(), e);
        }
    }

    /** A close frame after the goodbye: status 1001, going away. */
    @Override
    public void closeWrite() {
        stop();
        ws.socket().close((short) 1001, "server shutting down");
    }

    @Override
    public void end() {
        stop();
        ws.socket().close((short) 1000);
    }

    @Override
    public void close() {
        stop();
        ws.socket().close();
    }

    private void stop() {
        if (stopped.compareAndSet(false, true)) {
            stop.close();
        }
    }

    @Override
    public String peer() {
        return peer;
    }
}
