package io.gmp4j.examples.chat;

import io.gmp4j.TestSupport;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A WebSocket chat client for the tests (the JDK's {@link java.net.http.WebSocket}): a
 * {@link LineClient} with one text message per line both ways, read in order through a queue.
 * A {@linkplain #stalled stalled} client asks for no message after the first few, so its socket
 * fills and the server sees a slow reader. Every wait has {@link TestSupport#TIMEOUT_S} as its
 * safety net only.
 */
final class WsChatClient extends LineClient<RuntimeException> {
    /** What the queue holds once the server closed the WebSocket. */
    private static final String CLOSED = new String("<closed>");

    private final WebSocket ws;
    private final BlockingQueue<String> in = new LinkedBlockingQueue<>();

    private WsChatClient(URI uri, int stallAfter) {
        HttpClient http = HttpClient.newHttpClient();
        Listener l = new Listener(stallAfter);
        this.ws = http.newWebSocketBuilder().buildAsync(uri, l).orTimeout(TestSupport.TIMEOUT_S, TimeUnit.SECONDS).join();
    }

    /** Connects to {@code ws://host:port/ws}. */
    static WsChatClient connect(java.net.InetSocketAddress web) {
        return new WsChatClient(uri(web), Integer.MAX_VALUE);
    }

    /** Connects, and reads nothing after {@code n} messages: its TCP window fills up. */
    static WsChatClient stalled(java.net.InetSocketAddress web, int n) {
        return new WsChatClient(uri(web), n);
    }

    private static URI uri(java.net.InetSocketAddress web) {
        return URI.create("ws://127.0.0.1:" + web.getPort() + "/ws");
    }

    /** Connects and logs in as {@code nick}; returns once in the lobby. */
    static WsChatClient login(java.net.InetSocketAddress web, String nick) {
        WsChatClient c = connect(web);
        c.logIn(nick);
        return c;
    }

    /** Sends one line as one text message. */
    @Override
    void send(String line) {
        ws.sendText(line, true).orTimeout(TestSupport.TIMEOUT_S, TimeUnit.SECONDS).join();
    }

    /** The next line, or null once the server closed the WebSocket. */
    @Override
    String receive() {
        String l;
        try {
            l = in.poll(TestSupport.TIMEOUT_S, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
        if (l == null) {
            failNoLine();
        }
        if (l == CLOSED) {
            in.add(CLOSED); // it stays closed
            return null;
        }
        return l;
    }

    /** Closes the WebSocket (our close frame; the server answers with its own). */
    @Override
    public void close() {
        if (!ws.isOutputClosed()) {
            ws.sendClose(WebSocket.NORMAL_CLOSURE, "bye");
        }
        ws.abort();
    }

    /** Stops the TCP connection at once, with no close frame. */
    void abort() {
        ws.abort();
    }

    private final class Listener implements WebSocket.Listener {
        private final int stallAfter;
        private final StringBuilder part = new StringBuilder();
        private int messages;

        Listener(int stallAfter) {
            this.stallAfter = stallAfter;
        }

        @Override
        public CompletionStage<?> onText(WebSocket w, CharSequence data, boolean last) {
            part.append(data);
            if (last) {
                String line = part.toString();
                part.setLength(0);
                in.add(line);
                messages++;
            }
            if (messages < stallAfter) {
                w.request(1);
            }
            return null;
        }

        @Override
        public CompletionStage<?> onClose(WebSocket w, int status, String reason) {
            in.add(CLOSED);
            return null;
        }

        @Override
        public void onError(WebSocket w, Throwable error) {
            in.add(CLOSED);
        }
    }
}
