package io.gmp4j.examples.chat;

import io.gmp4j.TestSupport;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static io.gmp4j.examples.chat.LineClient.CHOOSE;
import static io.gmp4j.examples.chat.LineClient.WELCOME;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The chat's WebSocket side without a browser: WebSocket users (the JDK's client) are chat
 * clients like the TCP ones, in the same rooms, under the same limits and slow-client policy,
 * and the page's files are served over HTTP.
 */
@Timeout(value = 180)
class ChatWebSocketTest extends ChatTestBase {
    @Test
    void webSocketAndTcpUsersShareRoomsWhoAndPrivateMessages() throws Exception {
        startWithWeb(ChatConfig.defaults());
        try (WsChatClient w = WsChatClient.login(web, "web"); ChatClient t = ChatClient.login(tcp, "term")) {
            w.await("*** term joined lobby"::equals);
            w.send("hello, terminal");
            t.await("[lobby] web: hello, terminal"::equals);
            w.await("[lobby] web: hello, terminal"::equals);
            t.send("hello, browser");
            w.await("[lobby] term: hello, browser"::equals);
            t.await("[lobby] term: hello, browser"::equals);
            w.send("/who");
            w.await("*** in lobby: web term"::equals);
            t.send("/msg WEB just for you");
            w.await("[pm] term: just for you"::equals);
            t.await("[pm -> web] just for you"::equals);
            w.send("/msg term and back");
            t.await("[pm] web: and back"::equals);
            w.await("[pm -> term] and back"::equals);
            w.send("/join den");
            w.await("*** web joined den"::equals);
            t.await("*** web left lobby"::equals);
            t.send("/rooms");
            t.await("*** rooms: den (1) lobby (1)"::equals);
            w.send("/rooms");
            w.await("*** rooms: den (1) lobby (1)"::equals);
            assertEquals(List.of(WELCOME,
                    CHOOSE, "*** hello web; you are in lobby (/join <room> to move, /rooms to list)",
                    "*** web joined lobby", "*** term joined lobby", "[lobby] web: hello, terminal",
                    "[lobby] term: hello, browser", "*** in lobby: web term", "[pm] term: just for you",
                    "[pm -> term] and back", "*** web joined den", "*** rooms: den (1) lobby (1)"), w.seen);
            assertEquals(List.of(WELCOME,
                    CHOOSE, "*** hello term; you are in lobby (/join <room> to move, /rooms to list)",
                    "*** term joined lobby", "[lobby] web: hello, terminal", "[lobby] term: hello, browser",
                    "[pm -> web] just for you", "[pm] web: and back", "*** web left lobby",
                    "*** rooms: den (1) lobby (1)"), t.seen);
            w.send("/quit");
            w.await("*** bye web"::equals);
            assertEquals(List.of(), w.readToEnd(), "the server closes after the bye");
        }
    }

    /**
     * A TCP and a WebSocket sender flood the lobby; a WebSocket and a TCP receiver each get
     * every line of both, once, in each sender's order, and nothing else.
     */
    @Test
    void everyLineReachesWebSocketAndTcpReceiversOnceInOrder() throws Exception {
        int n = TestSupport.stress(20_000, 4_000);
        startWithWeb(ChatConfig.defaults().withQueue(4 * n)); // deep queues: no receiver counts as slow here
        try (ChatClient a = ChatClient.login(tcp, "a"); WsChatClient s = WsChatClient.login(web, "s");
             WsChatClient r = WsChatClient.login(web, "r"); ChatClient t = ChatClient.login(tcp, "t")) {
            r.await("*** t joined lobby"::equals); // everyone is in: t's login saw its own join
            Thread tcpSender = Thread.ofPlatform().start(() -> {
                try {
                    for (int k = 0; k < n; k++) {
                        a.send(Integer.toString(k));
                    }
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            for (int k = 0; k < n; k++) {
                s.send(Integer.toString(k));
            }
            tcpSender.join(TimeUnit.SECONDS.toMillis(TestSupport.TIMEOUT_S));
            assertFalse(tcpSender.isAlive(), "the TCP sender finished");
            int[] fromWs = new int[2];
            for (int got = 0; got < 2 * n; got++) {
                String l = r.readLine();
                assertTrue(l != null, "the WebSocket receiver was closed after " + got + " lines");
                count(l, fromWs);
            }
            int[] fromTcp = new int[2];
            for (int got = 0; got < 2 * n; got++) {
                String l = t.readLine();
                assertTrue(l != null, "the TCP receiver was closed after " + got + " lines");
                count(l, fromTcp);
            }
            assertEquals(List.of(n, n), List.of(fromWs[0], fromWs[1]), "the WebSocket receiver got every line");
            assertEquals(List.of(n, n), List.of(fromTcp[0], fromTcp[1]), "the TCP receiver got every line");
            r.send("/rooms"); // nothing was queued for it after the lines counted: this answer comes next
            assertEquals("*** rooms: lobby (4)", r.readLine());
            t.send("/rooms");
            assertEquals("*** rooms: lobby (4)", t.readLine());
        }
    }

    /** Counts {@code [lobby] a: k} into {@code next[0]} and {@code [lobby] s: k} into {@code next[1]}, in order. */
    private static void count(String l, int[] next) {
        int who = l.startsWith("[lobby] a: ") ? 0 : l.startsWith("[lobby] s: ") ? 1 : -1;
        assertTrue(who >= 0, "not a flood line: " + l);
        assertEquals(next[who], Integer.parseInt(l.substring(11)), "sender " + (who == 0 ? "a" : "s") + "'s order");
        next[who]++;
    }

    @Test
    void overLongLinesAreRefusedAndControlCharactersCleaned() throws Exception {
        startWithWeb(ChatConfig.defaults().withMaxLine(64));
        try (WsChatClient a = WsChatClient.login(web, "a"); ChatClient b = ChatClient.login(tcp, "b")) {
            a.send("y".repeat(65));
            a.await("*** line too long (max 64 bytes), ignored"::equals);
            a.send("é".repeat(33)); // 66 bytes in UTF-8: the limit is in bytes
            a.await("*** line too long (max 64 bytes), ignored"::equals);
            a.send("w".repeat(64)); // exactly the maximum
            b.await(("[lobby] a: " + "w".repeat(64))::equals);
            a.send("two\nlines\u001b[2J");
            b.await("[lobby] a: two\uFFFDlines\uFFFD[2J"::equals);
            a.send("still here ✓");
            b.await("[lobby] a: still here ✓"::equals);
            assertTrue(b.seen.stream().noneMatch(l -> l.contains("yyy") || l.contains("éé")), b::tail);
        }
    }

    @Test
    void aSlowWebSocketClientIsDisconnectedAndTheRoomStillGetsEveryLine() throws Exception {
        startWithWeb(ChatConfig.defaults().withQueue(128).withMaxLine(2048));
        WsChatClient slow = WsChatClient.stalled(web, 4); // reads the greeting, its hello and join; then nothing
        try (ChatClient a = ChatClient.login(tcp, "a"); ChatClient b = ChatClient.login(tcp, "b")) {
            slow.await("*** choose a nickname:"::equals);
            slow.send("slow");
            a.await("*** slow joined lobby"::equals);
            b.await("*** slow joined lobby"::equals);
            LobbyFlood flood = new LobbyFlood(a, b);
            flood.roundsUntil(() -> flood.ta.kicked() && flood.tb.kicked(), "the slow client was never disconnected");
            flood.round(LobbyFlood.PER_ROUND); // the room goes on without it
            flood.finish();
        } finally {
            slow.abort();
        }
    }

    @Test
    void webSocketAndTcpClientsCountTogetherAgainstTheMaximum() throws Exception {
        startWithWeb(ChatConfig.defaults().withMaxClients(2));
        try (ChatClient a = ChatClient.login(tcp, "a"); WsChatClient b = WsChatClient.connect(web)) {
            b.await("*** choose a nickname:"::equals); // a pending login counts too
            try (WsChatClient c = WsChatClient.connect(web)) {
                assertEquals(List.of("*** server full (2 clients), try again later"), c.readToEnd());
            }
            try (ChatClient d = new ChatClient(tcp)) {
                assertEquals(List.of("*** server full (2 clients), try again later"), d.readToEnd());
            }
        }
    }

    /** As ChatServerTest's idle check: the notice, then the close frame; any idle time gives these lines. */
    @Test
    void idleWebSocketClientsAreDisconnected() throws Exception {
        startWithWeb(ChatConfig.defaults().withIdle(Duration.ofMillis(50)));
        try (WsChatClient a = WsChatClient.connect(web)) {
            a.await("*** choose a nickname:"::equals);
            assertEquals(List.of("*** idle for 50ms, disconnecting"), a.readToEnd());
        }
    }

    @Test
    void shutdownSaysGoodbyeToWebSocketClientsToo() throws Exception {
        startWithWeb(ChatConfig.defaults());
        try (WsChatClient w = WsChatClient.login(web, "w"); ChatClient t = ChatClient.login(tcp, "t");
             WsChatClient pending = WsChatClient.connect(web)) {
            pending.await("*** choose a nickname:"::equals);
            Thread closer = Thread.ofPlatform().start(server::close);
            for (WsChatClient c : List.of(w, pending)) {
                c.await(Hub.GOODBYE::equals);
                assertEquals(List.of(), c.readToEnd(), "the goodbye is the last line");
            }
            t.await(Hub.GOODBYE::equals);
            assertEquals(List.of(), t.readToEnd());
            t.close(); // the TCP client closes after the goodbye (the WebSocket ones answered the close)
            closer.join(TimeUnit.SECONDS.toMillis(TestSupport.TIMEOUT_S));
            assertFalse(closer.isAlive(), "close() returned");
        }
    }

    @Test
    void thePageIsServedAndNothingElse() throws Exception {
        startWithWeb(ChatConfig.defaults());
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(TestSupport.TIMEOUT_S)).build();
        String base = "http://127.0.0.1:" + web.getPort();
        HttpResponse<String> page = get(http, base + "/");
        assertEquals(200, page.statusCode());
        assertEquals("text/html; charset=utf-8", page.headers().firstValue("Content-Type").orElse(""));
        assertTrue(page.body().contains("<title>gmp4j chat</title>") && page.body().contains("chat.js"), page.body());
        HttpResponse<String> js = get(http, base + "/chat.js");
        assertEquals(200, js.statusCode());
        assertTrue(js.body().contains("new WebSocket("), "the script opens the WebSocket");
        assertEquals(200, get(http, base + "/chat.css").statusCode());
        assertEquals(404, get(http, base + "/../pom.xml").statusCode());
        assertEquals(404, get(http, base + "/web/chat.js").statusCode());
        HttpResponse<String> post = http.send(HttpRequest.newBuilder(URI.create(base + "/"))
                .POST(HttpRequest.BodyPublishers.ofString("x")).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(405, post.statusCode());
    }

    private static HttpResponse<String> get(HttpClient http, String url) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(TestSupport.TIMEOUT_S))
                .build(), HttpResponse.BodyHandlers.ofString());
    }
}
