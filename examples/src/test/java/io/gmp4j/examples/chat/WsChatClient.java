package io.gmp4j.examples.chat;

import io.gmp4j.TestSupport;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.WebSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * A WebSocket chat client for the tests (the JDK's {@link java.net.http.WebSocket}): one text
 * message per line both ways, read in order through a queue. A {@linkplain #stalled stalled}
 * client asks for no message after the first few, so its socket fills and the server sees a
 * slow reader. Every wait has {@link TestSupport#TIMEOUT_S} as its safety net only.
 */
final class WsChatClient implements AutoCloseable {
    /** What {@link #readLine} returns once the server closed the WebSocket. */
    private static final String CLOSED = new String("<closed>");

    private final WebSocket ws;
    private final BlockingQueue<String> in = new LinkedBlockingQueue<>();
    /** Every line read, in order. */
    final List<String> seen = new ArrayList<>();

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
        c.await("*** choose a nickname:"::equals);
        c.send(nick);
        c.await(("*** " + nick + " joined lobby")::equals);
        return c;
    }

    /** Sends one line as one text message. */
    void send(String line) {
        ws.sendText(line, true).orTimeout(TestSupport.TIMEOUT_S, TimeUnit.SECONDS).join();
    }

    /** The next line, or null once the server closed the WebSocket. */
    String readLine() throws InterruptedException {
        String l = in.poll(TestSupport.TIMEOUT_S, TimeUnit.SECONDS);
        if (l == null) {
            fail("no line within " + TestSupport.TIMEOUT_S + " s; seen: " + tail());
        }
        if (l == CLOSED) {
            in.add(CLOSED); // it stays closed
            return null;
        }
        seen.add(l);
        return l;
    }

    /** Reads until a line matches (returning it); fails at the close. */
    String await(Predicate<String> p) {
        try {
            while (true) {
                String l = readLine();
                if (l == null) {
                    fail("closed before the expected line; seen: " + tail());
                }
                if (p.test(l)) {
                    return l;
                }
            }
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    /** Reads to the close, returning the lines read. */
    List<String> readToEnd() throws InterruptedException {
        List<String> rest = new ArrayList<>();
        for (String l; (l = readLine()) != null; ) {
            rest.add(l);
        }
        return rest;
    }

    String tail() {
        return seen.subList(Math.max(0, seen.size() - 10), seen.size()).toString();
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
