package io.gmp4j.examples.chat;

import static io.gmp4j.examples.chat.LineClient.CHOOSE;
import static io.gmp4j.examples.chat.LineClient.WELCOME;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gmp4j.Go;
import io.gmp4j.GoRuntime;
import io.gmp4j.chan.Select;
import io.gmp4j.examples.chat.PipeLink.Heard;
import io.gmp4j.test.GoTest;
import io.gmp4j.time.Time;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The chat's idle timeout on a synctest bubble's clock: the hub, the clients' readers, writers
 * and idle watchdogs run as on a server, over {@link PipeLink}s instead of sockets, so every
 * line's time is exact. A client that sends nothing for the idle time is told and disconnected
 * exactly then, counted from the last line it sent (an over-long one too), never earlier; lines
 * it only receives do not count; without an idle limit a silent client stays. Minutes of chat
 * in milliseconds. (ChatServerTest and ChatWebSocketTest keep one end-to-end idle check each on
 * real sockets, whose reads are not durable waits.)
 */
@GoTest(procs = 2, bubble = true, timeoutMillis = 20_000)
class ChatIdleTest {

    /** A hub with clients over pipes, in the caller's bubble; no listener. */
    static final class PipeServer {
        final GoRuntime rt = GoRuntime.current();
        final ChatConfig cfg;
        final Hub hub;
        final Instant start = Time.now();

        PipeServer(ChatConfig cfg) {
            this.cfg = cfg;
            this.hub = new Hub(rt, cfg, null);
            rt.go(hub::run);
        }

        /** A client connecting now, its peer listening: as the acceptor serves a TCP connection. */
        PipeLink connect(String name) {
            PipeLink link = new PipeLink(name, start);
            link.listen();
            Client c = new Client(link, cfg.queue());
            assertTrue(Acceptor.serve(hub, rt, c, new Select()), "the hub took " + name);
            rt.go(() -> {
                try {
                    c.readLoop(hub, cfg);
                } finally {
                    hub.conns.done();
                }
            });
            return link;
        }

        /** Sleeps until {@code at} after the server's start. */
        void sleepUntil(Duration at) {
            Time.sleep(at.minus(Time.since(start)));
        }

        /** ChatServer.close's part for the hub: the goodbye, then the hub returns once every connection ended. */
        void close() {
            hub.quit.close();
        }
    }

    static Heard at(Duration d, String line) {
        return new Heard(d, line);
    }

    static Duration min(long m) {
        return Duration.ofMinutes(m);
    }

    @Test
    void aSilentClientIsToldAndDisconnectedExactlyOneIdleTimeoutAfterItConnected() {
        ChatConfig cfg = ChatConfig.defaults(); // 5 minutes
        assertEquals(min(5), cfg.idle());
        PipeServer server = new PipeServer(cfg);
        PipeLink a = server.connect("a");
        assertEquals(List.of(at(Duration.ZERO, WELCOME), at(Duration.ZERO, CHOOSE),
                at(min(5), "*** idle for 5m, disconnecting")), a.heardToEnd());
        assertTrue(a.endedBothWays(), "the connection is closed, not half-closed");
        assertEquals(min(5), Time.since(server.start));
        server.close();
    }

    /**
     * Alice logs in at 4 min, sends an over-long line at 8:59.999 and then only listens (bob
     * talks to the room at 12 min): she is disconnected at 13:59.999, and bob, who sends a line
     * every 3 minutes, sees it then and is never idle himself.
     */
    @Test
    void eachLineSentRestartsTheIdleTimeAndLinesReceivedDoNot() {
        PipeServer server = new PipeServer(ChatConfig.defaults());
        PipeLink alice = server.connect("alice");
        PipeLink bob = server.connect("bob");
        bob.say("bob");
        Go.go(() -> { // bob's side: a line every 3 minutes
            for (int m = 3; m <= 18; m += 3) {
                server.sleepUntil(min(m));
                bob.say(m == 12 ? "hi" : "/rooms");
            }
            bob.say("/quit");
        });
        Duration tooLongAt = min(9).minusMillis(1);
        Duration idleAt = tooLongAt.plus(min(5));
        server.sleepUntil(min(4));
        alice.say("alice");
        server.sleepUntil(tooLongAt);
        alice.say(LineIn.TOO_LONG);

        assertEquals(List.of(
                at(Duration.ZERO, WELCOME),
                at(Duration.ZERO, CHOOSE),
                at(min(4), "*** hello alice; you are in lobby (/join <room> to move, /rooms to list)"),
                at(min(4), "*** alice joined lobby"),
                at(tooLongAt, "*** line too long (max 1024 bytes), ignored"),
                at(min(12), "[lobby] bob: hi"),
                at(idleAt, "*** idle for 5m, disconnecting")), alice.heardToEnd());
        assertTrue(alice.endedBothWays());
        assertEquals(List.of(
                at(Duration.ZERO, WELCOME),
                at(Duration.ZERO, CHOOSE),
                at(Duration.ZERO, "*** hello bob; you are in lobby (/join <room> to move, /rooms to list)"),
                at(Duration.ZERO, "*** bob joined lobby"),
                at(min(3), "*** rooms: lobby (1)"),
                at(min(4), "*** alice joined lobby"),
                at(min(6), "*** rooms: lobby (2)"),
                at(min(9), "*** rooms: lobby (2)"),
                at(min(12), "[lobby] bob: hi"),
                at(idleAt, "*** alice was disconnected: idle"),
                at(min(15), "*** rooms: lobby (1)"),
                at(min(18), "*** rooms: lobby (1)"),
                at(min(18), "*** bye bob")), bob.heardToEnd());
        server.close();
    }

    @Test
    void withoutAnIdleLimitASilentClientStaysUntilTheGoodbye() {
        PipeServer server = new PipeServer(ChatConfig.defaults().withIdle(Duration.ZERO));
        PipeLink a = server.connect("a");
        Duration later = Duration.ofHours(100);
        server.sleepUntil(later);
        server.close();
        assertEquals(List.of(at(Duration.ZERO, WELCOME), at(Duration.ZERO, CHOOSE), at(later, Hub.GOODBYE)),
                a.heardToEnd());
        assertFalse(a.endedBothWays(), "the goodbye is followed by a FIN only");
        a.hangUp(); // the peer closes too: its reader ends, and the hub with it
    }
}
