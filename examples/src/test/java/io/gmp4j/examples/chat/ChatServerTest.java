package io.gmp4j.examples.chat;

import io.gmp4j.GoRuntime;
import io.gmp4j.NoUncaughtExceptions;
import io.gmp4j.TestSupport;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The chat server end to end over loopback TCP, with plain blocking socket clients. No sleeps:
 * every wait is for a specific line, with a read timeout only as a safety net.
 */
@ExtendWith(NoUncaughtExceptions.class)
class ChatServerTest {
    private GoRuntime rt;
    private ChatServer server;

    private InetSocketAddress start(ChatServer.Config cfg) throws IOException {
        rt = GoRuntime.builder().maxProcs(2).name("chat-test").build();
        server = ChatServer.start(rt, "127.0.0.1:0", cfg);
        return server.address();
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
            assertTrue(server.awaitStopped(Duration.ofSeconds(TestSupport.TIMEOUT_S)), "server stopped");
        }
        if (rt != null) {
            rt.close();
        }
    }

    /** N clients in 3 rooms each send M lines: each lands exactly once at each member of its room, nowhere else. */
    @Test
    void everyMessageReachesEveryMemberOfItsRoomExactlyOnceAndNoOtherRoom() throws Exception {
        int n = TestSupport.stress(200, 30);
        int m = TestSupport.stress(20, 10);
        InetSocketAddress addr = start(ChatServer.Config.defaults());
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
}
