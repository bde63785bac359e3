package io.gmp4j.examples.chat;

import java.net.InetSocketAddress;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/**
 * {@link ChatConfig.SlowPolicy#DROP} end to end over loopback TCP: a client that stops reading
 * keeps its connection, the room gets every line, and the client is told exactly how many it
 * missed. Counts, never speed; no sleeps.
 */
class ChatDropPolicyTest extends ChatTestBase {
    private static final Pattern NOTICE = Pattern.compile("\\*\\*\\* (\\d+) lines dropped: you are reading too slowly");

    @Test
    void aClientThatStopsReadingStaysAndIsToldExactlyHowManyLinesItMissed() throws Exception {
        InetSocketAddress addr = start(ChatConfig.defaults()
                .withQueue(128).withMaxLine(2048).withSlowPolicy(ChatConfig.SlowPolicy.DROP));
        ChatClient slow = ChatClient.login(addr, "slow", 4096);
        // from here until it resumes, slow reads nothing
        try (ChatClient a = ChatClient.login(addr, "a"); ChatClient b = ChatClient.login(addr, "b")) {
            LobbyFlood flood = new LobbyFlood(a, b);
            flood.roundsUntil(() -> server.droppedFor("slow") > 0, "nothing dropped for the slow client");
            // Once a and b have a line, the hub has handled it: a count that grew by one
            // means that line was dropped, so the notice slow is owed follows every line it got.
            // The stalled client's window is fixed (SO_RCVBUF 4 KiB), but the server's send
            // buffer keeps growing by autotuning (tcp_wmem's maximum is 4 MiB here), so the writer
            // may drain the queue again for a while after the first drop: allow more single lines
            // than that buffer can hide before insisting on one that is dropped.
            int maxSingles = 10_000; // 10 MB of lines
            long before = server.droppedFor("slow");
            for (int k = 0; k < maxSingles; k++) {
                flood.round(1);
                long now = server.droppedFor("slow");
                if (now == before + 1) {
                    break;
                }
                before = now;
            }
            long dropped = server.droppedFor("slow");
            assertEquals(before + 1, dropped, "the last line sent to the stalled client was not dropped");
            assertFalse(flood.ta.kicked() || flood.tb.kicked(), "the room was told the slow client was disconnected");
            int stalledSent = flood.sent();

            // slow reads again: the lines it was sent, with each gap announced by a notice of its size
            int next = 0; // the next line slow would get if nothing were dropped
            long noticed = 0;
            long lastNotice = 0; // since the last line received
            while (noticed < dropped) {
                String l = slow.readLine();
                assertNotNull(l, "slow lost its connection; seen: " + slow.tail());
                Matcher m = NOTICE.matcher(l);
                if (m.matches()) {
                    assertEquals(0, lastNotice, "two notices without a line between: " + slow.tail());
                    lastNotice = Long.parseLong(m.group(1));
                    assertTrue(lastNotice > 0, l);
                    noticed += lastNotice;
                } else if (l.startsWith("[lobby] a: p ")) {
                    int k = index(l);
                    assertEquals(next + lastNotice, k, "a gap the notice before it does not match: " + slow.tail());
                    next = k + 1;
                    lastNotice = 0;
                }
            }
            assertEquals(dropped, noticed, "the notices add up to the server's count");
            assertEquals(stalledSent, next + lastNotice, "lines received plus lines dropped = lines sent");
            assertTrue(lastNotice > 0, "the last line dropped was announced last");

            // then only the new lines, each once, in order
            int resumed = flood.sent();
            flood.round(LobbyFlood.PER_ROUND);
            for (int k = resumed; k < flood.sent(); k++) {
                assertEquals("[lobby] a: p " + k + " " + LobbyFlood.PAD, slow.readLine(), slow::tail);
            }
            assertEquals(dropped, server.droppedFor("slow"), "nothing dropped once it read again");

            flood.finish();
            assertFalse(flood.ta.kicked() || flood.tb.kicked(), "the room was told the slow client was disconnected");
            slow.await("*** a left"::equals); // still connected
            server.close();
            assertEquals(dropped, server.dropped(), "only the slow client lost lines");
            assertTrue(server.summary().contains(dropped + " lines dropped for slow readers"), server::summary);
            assertTrue(server.summary().contains("0 disconnected as too slow"), server::summary);
        } finally {
            slow.close();
        }
    }

    @Test
    void droppedForAnUnknownNickIsAClearError() throws Exception {
        start(ChatConfig.defaults().withSlowPolicy(ChatConfig.SlowPolicy.DROP));
        try (ChatClient a = ChatClient.login(server.address(), "a")) {
            assertEquals(0, server.droppedFor("a"));
            assertEquals(0, server.droppedFor("A"), "nicknames ignore case");
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> server.droppedFor("nobody"));
            assertEquals("no client called nobody", e.getMessage());
        }
        server.close();
        assertThrows(IllegalStateException.class, () -> server.droppedFor("a"), "the server has stopped");
    }

    private static int index(String line) {
        return Integer.parseInt(line.split(" ")[3]);
    }
}
