package io.gmp4j.examples.chat;

import io.gmp4j.TestSupport;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * What the chat tests do with a client of either kind, TCP ({@link ChatClient}) or WebSocket
 * ({@link WsChatClient}): send a line, read the next one, wait for one that matches, read to the
 * end, log in, ask {@code /who} until it lists the expected people. Every line read is kept in
 * {@link #seen}, in order. A subclass supplies only how one line is sent and received; every
 * read has {@link TestSupport#TIMEOUT_S} as its safety net, which a test that needs it has
 * already failed.
 *
 * @param <X> what sending and receiving may throw ({@link java.io.IOException} on a socket)
 */
abstract class LineClient<X extends Exception> implements AutoCloseable {
    /** The server's first line to a new connection. */
    static final String WELCOME = "*** welcome to gmp4j chat; commands: /nick /join /rooms /who /msg /quit";
    /** Its second: the prompt for the login. */
    static final String CHOOSE = "*** choose a nickname:";

    /** Every line read, in order. */
    final List<String> seen = new ArrayList<>();

    /** Sends one line. */
    abstract void send(String line) throws X;

    /**
     * The next line from the server, or null once the connection ended; fails (through
     * {@link #failNoLine}) when none comes within the safety net.
     */
    abstract String receive() throws X;

    /** Fails the test: no line came within the safety net. */
    final void failNoLine() {
        fail("no line within " + TestSupport.TIMEOUT_S + " s; seen: " + tail());
    }

    /** The next line, or null once the connection ended. */
    final String readLine() throws X {
        String l = receive();
        if (l != null) {
            seen.add(l);
        }
        return l;
    }

    /** Reads until a line matches (returning it); fails when the connection ends first. */
    final String await(Predicate<String> p) throws X {
        while (true) {
            String l = readLine();
            if (l == null) {
                fail("the connection ended before the expected line; seen: " + tail());
            }
            if (p.test(l)) {
                return l;
            }
        }
    }

    /** Reads to the end of the connection, returning the lines read. */
    final List<String> readToEnd() throws X {
        List<String> rest = new ArrayList<>();
        for (String l; (l = readLine()) != null; ) {
            rest.add(l);
        }
        return rest;
    }

    /** The last ten lines read, for failure messages. */
    final String tail() {
        return seen.subList(Math.max(0, seen.size() - 10), seen.size()).toString();
    }

    /** The login dialogue as {@code nick} on a fresh connection; returns once in the lobby. */
    final void logIn(String nick) throws X {
        await(CHOOSE::equals);
        send(nick);
        await(("*** " + nick + " joined lobby")::equals);
    }

    /**
     * Asks {@code /who} until the answer for {@code room} lists exactly {@code expect} (bounded
     * by the safety net): on a cluster, another node's users arrive asynchronously.
     */
    final void awaitWho(String room, Set<String> expect) throws X {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TestSupport.TIMEOUT_S);
        String prefix = "*** in " + room + ":";
        Set<String> got;
        do {
            send("/who");
            got = whoNames(await(s -> s.startsWith(prefix)));
            if (System.nanoTime() > deadline) {
                fail("/who in " + room + " never listed " + expect + "; last " + got);
            }
        } while (!got.equals(expect));
    }

    /** The nicknames of a {@code /who} answer ({@code *** in room: a b c}), sorted. */
    static Set<String> whoNames(String who) {
        return new TreeSet<>(Arrays.asList(who.substring(who.indexOf(':') + 1).strip().split(" ")));
    }
}
