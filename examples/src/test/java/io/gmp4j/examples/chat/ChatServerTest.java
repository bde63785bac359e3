package io.gmp4j.examples.chat;

import io.gmp4j.TestSupport;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The chat server end to end over loopback TCP, with plain blocking socket clients. No sleeps:
 * every wait is for a specific line, with a read timeout only as a safety net.
 */
class ChatServerTest extends ChatTestBase {
    /** N clients in 3 rooms each send M lines: each lands exactly once at each member of its room, nowhere else. */
    @Test
    void everyMessageReachesEveryMemberOfItsRoomExactlyOnceAndNoOtherRoom() throws Exception {
        int n = TestSupport.stress(200, 30);
        int m = TestSupport.stress(20, 10);
        // A queue that holds every line of the test: this one is about routing, and a client
        // whose reader thread is slow to get a core must not count as a slow client here.
        InetSocketAddress addr = start(ChatConfig.defaults().withQueue(Math.max(1024, 2 * n * m)));
        ChatClient[] cs = new ChatClient[n];
        int[] roomSize = new int[3];
        for (int i = 0; i < n; i++) {
            cs[i] = ChatClient.login(addr, "u" + i);
            String room = "r" + (i % 3);
            cs[i].send("/join " + room);
            String joined = "*** u" + i + " joined " + room;
            cs[i].await(joined::equals);
            roomSize[i % 3]++;
        }
        // every membership is settled in the hub before the first message
        CountDownLatch allRead = new CountDownLatch(n);
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            List<Future<?>> fs = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                int me = i;
                fs.add(pool.submit(() -> {
                    ChatClient c = cs[me];
                    int room = me % 3;
                    for (int k = 0; k < m; k++) {
                        c.send("m " + me + " " + k);
                    }
                    boolean[][] got = new boolean[n][m];
                    int expect = roomSize[room] * m;
                    for (int count = 0; count < expect; ) {
                        String l = c.readLine();
                        assertNotNull(l, "u" + me + " lost its connection after " + count + " of " + expect + ": " + c.tail());
                        if (l.startsWith("[")) {
                            count++;
                            checkMessage(l, me, room, got);
                        }
                    }
                    allRead.countDown();
                    TestSupport.await(allRead, () -> "the other clients reading");
                    // Every message was routed before this: anything but the reply is extra.
                    c.send("/who");
                    while (true) {
                        String l = c.readLine();
                        assertNotNull(l, "u" + me + " lost its connection");
                        assertFalse(l.startsWith("["), () -> "u" + me + " got an extra line: " + l);
                        if (l.startsWith("*** in r" + room + ":")) {
                            assertEquals(roomSize[room], l.split(" ").length - 3, l);
                            break;
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> f : fs) {
                f.get(TestSupport.TIMEOUT_S * 2, TimeUnit.SECONDS);
            }
            for (ChatClient c : cs) {
                c.close();
            }
            server.close();
            // the writers batch: a room's burst goes out in fewer writes than lines
            assertTrue(server.writes() < server.delivered(), server::summary);
        } finally {
            pool.shutdownNow();
            for (ChatClient c : cs) {
                c.close();
            }
        }
    }

    private static void checkMessage(String l, int me, int room, boolean[][] got) {
        // "[rX] uJ: m J k"
        String[] w = l.split(" ");
        assertEquals(5, w.length, l);
        assertEquals("[r" + room + "]", w[0], () -> "u" + me + " got another room's line: " + l);
        int from = Integer.parseInt(w[3]);
        int k = Integer.parseInt(w[4]);
        assertEquals("u" + from + ":", w[1], l);
        assertEquals(room, from % 3, () -> "a line from another room's member: " + l);
        assertFalse(got[from][k], () -> "u" + me + " got a line twice: " + l);
        got[from][k] = true;
    }

    @Test
    void nicknamesAreUniqueAndATakenOneIsRefusedPolitely() throws Exception {
        InetSocketAddress addr = start(ChatConfig.defaults());
        try (ChatClient alice = ChatClient.login(addr, "alice");
             ChatClient b = new ChatClient(addr)) {
            b.await("*** choose a nickname:"::equals);
            b.send("alice");
            b.await("*** nickname alice is taken, choose another:"::equals);
            b.send("ALICE"); // case does not make another nickname
            b.await("*** nickname ALICE is taken, choose another:"::equals);
            b.send("bad nick!");
            b.await(l -> l.startsWith("*** a nickname is 1 to 20 letters"));
            b.send("bob");
            b.await("*** bob joined lobby"::equals);
            alice.await("*** bob joined lobby"::equals);

            b.send("/nick alice");
            b.await("*** nickname alice is taken"::equals);
            b.send("/nick bobby");
            alice.await("*** bob is now known as bobby"::equals);
            alice.send("/who");
            assertEquals("*** in lobby: alice bobby", alice.await(l -> l.startsWith("*** in ")));
            // the old nickname is free again
            try (ChatClient c = ChatClient.login(addr, "bob")) {
                alice.await("*** bob joined lobby"::equals);
            }
        }
    }

    @Test
    void privateMessagesRoomsAndWho() throws Exception {
        InetSocketAddress addr = start(ChatConfig.defaults());
        try (ChatClient alice = ChatClient.login(addr, "alice");
             ChatClient bob = ChatClient.login(addr, "bob");
             ChatClient carol = ChatClient.login(addr, "carol")) {
            alice.send("/msg bob psst secret");
            assertEquals("[pm] alice: psst secret", bob.await(l -> l.startsWith("[pm]")));
            assertEquals("[pm -> bob] psst secret", alice.await(l -> l.startsWith("[pm")));
            alice.send("/msg nobody hi");
            alice.await("*** no such nick: nobody"::equals);

            carol.send("/join go");
            carol.await("*** carol joined go"::equals);
            alice.await("*** carol left lobby"::equals);
            alice.send("/rooms");
            assertEquals("*** rooms: go (1) lobby (2)", alice.await(l -> l.startsWith("*** rooms:")));
            alice.send("hello lobby");
            bob.await("[lobby] alice: hello lobby"::equals);
            alice.await("[lobby] alice: hello lobby"::equals);
            alice.send("grüße, 世界 ✓"); // multi-byte UTF-8 goes through encoded once, byte for byte
            bob.await("[lobby] alice: grüße, 世界 ✓"::equals);
            alice.await("[lobby] alice: grüße, 世界 ✓"::equals);
            carol.send("/msg alice from go");
            alice.await("[pm] carol: from go"::equals);
            // carol saw neither the private message to bob nor the lobby's line
            carol.send("/who");
            assertEquals("*** in go: carol", carol.await(l -> l.startsWith("*** in ")));
            assertTrue(carol.seen.stream().noneMatch(l -> l.contains("secret") || l.contains("hello lobby") || l.contains("grüße")),
                    carol.seen::toString);

            bob.send("/quit");
            bob.await("*** bye bob"::equals);
            assertEquals(List.of(), bob.readToEnd(), "nothing after bye, then the end of stream");
            alice.await("*** bob left"::equals);
        }
    }

    /**
     * A client that stops reading is disconnected with a notice to its room once its queue is
     * full, and every other member still gets every line, counted exactly.
     */
    @Test
    void aSlowClientIsDisconnectedAndTheRoomStillGetsEveryLine() throws Exception {
        InetSocketAddress addr = start(ChatConfig.defaults().withQueue(128).withMaxLine(2048));
        ChatClient slow = ChatClient.login(addr, "slow", 4096);
        // from here on, slow reads nothing
        try (ChatClient a = ChatClient.login(addr, "a"); ChatClient b = ChatClient.login(addr, "b")) {
            LobbyFlood flood = new LobbyFlood(a, b);
            flood.roundsUntil(() -> flood.ta.kicked() && flood.tb.kicked(), "the slow client was never disconnected");
            flood.round(LobbyFlood.PER_ROUND); // the room goes on without it
            flood.finish();
            int sent = flood.sent();
            // the slow client's connection ends; it had not been sent everything
            List<String> rest = slow.readToEnd();
            long got = rest.stream().filter(l -> l.startsWith("[lobby] a: p ")).count();
            assertTrue(got < sent, got + " of " + sent);
        } finally {
            slow.close();
        }
    }

    @Test
    void overLongLinesAreRefusedAndTheConnectionSurvives() throws Exception {
        InetSocketAddress addr = start(ChatConfig.defaults().withMaxLine(64));
        try (ChatClient a = ChatClient.login(addr, "a"); ChatClient b = ChatClient.login(addr, "b")) {
            a.send("y".repeat(65));
            a.await("*** line too long (max 64 bytes), ignored"::equals);
            a.send("z".repeat(100_000)); // many reads long
            a.await("*** line too long (max 64 bytes), ignored"::equals);
            a.send("w".repeat(64)); // exactly the maximum
            b.await(("[lobby] a: " + "w".repeat(64))::equals);
            a.send("still here");
            b.await("[lobby] a: still here"::equals);
            assertTrue(b.seen.stream().noneMatch(l -> l.contains("yyy") || l.contains("zzz")), b::tail);

            // invalid UTF-8 and a terminal escape become U+FFFD; valid UTF-8 passes
            a.sendRaw(new byte[]{(byte) 0xff, (byte) 0xc3, 'o', 'k', 0x1b, '[', '2', 'J', '\n'});
            b.await("[lobby] a: \uFFFD\uFFFDok\uFFFD[2J"::equals);
            a.send("héllo wörld ✓");
            b.await("[lobby] a: héllo wörld ✓"::equals);
        }
    }

    @Test
    void anExtraClientBeyondTheMaximumIsToldTheServerIsFull() throws Exception {
        InetSocketAddress addr = start(ChatConfig.defaults().withMaxClients(2));
        try (ChatClient a = ChatClient.login(addr, "a"); ChatClient b = new ChatClient(addr)) {
            b.await("*** choose a nickname:"::equals); // a pending login counts too
            try (ChatClient c = new ChatClient(addr)) {
                assertEquals(List.of("*** server full (2 clients), try again later"), c.readToEnd());
            }
            a.send("/quit");
            a.await("*** bye a"::equals);
            assertEquals(List.of(), a.readToEnd());
            try (ChatClient d = ChatClient.login(addr, "d")) {
                b.send("bee");
                b.await("*** bee joined lobby"::equals);
                d.await("*** bee joined lobby"::equals);
            }
        }
    }

    /**
     * End to end on a socket (ChatIdleTest has the exact times on a bubble): the notice, then
     * the close. No sleep, and any idle time gives these lines: the hub takes the client's
     * join before its watchdog can fire, so the welcome always comes first.
     */
    @Test
    void idleClientsAreDisconnected() throws Exception {
        InetSocketAddress addr = start(ChatConfig.defaults().withIdle(Duration.ofMillis(50)));
        try (ChatClient a = new ChatClient(addr)) {
            a.await("*** choose a nickname:"::equals);
            assertEquals(List.of("*** idle for 50ms, disconnecting"), a.readToEnd());
        }
    }

    @Test
    void shutdownSaysGoodbyeToEveryClient() throws Exception {
        InetSocketAddress addr = start(ChatConfig.defaults());
        List<ChatClient> cs = new ArrayList<>();
        try {
            for (int i = 0; i < 6; i++) {
                ChatClient c = ChatClient.login(addr, "s" + i);
                if (i % 2 == 1) {
                    c.send("/join other");
                    c.await(("*** s" + i + " joined other")::equals);
                }
                cs.add(c);
            }
            ChatClient pending = new ChatClient(addr); // not logged in yet: told too
            pending.await("*** choose a nickname:"::equals);
            cs.add(pending);
            Thread closer = Thread.ofPlatform().start(server::close);
            for (ChatClient c : cs) {
                c.await(Hub.GOODBYE::equals);
                assertEquals(List.of(), c.readToEnd(), "the goodbye is the last line");
                c.close();
            }
            closer.join(TimeUnit.SECONDS.toMillis(TestSupport.TIMEOUT_S));
            assertFalse(closer.isAlive(), "close() returned");
            assertThrows(IOException.class, () -> new ChatClient(addr).readToEnd(), "no longer listening");
        } finally {
            for (ChatClient c : cs) {
                c.close();
            }
        }
    }
}
