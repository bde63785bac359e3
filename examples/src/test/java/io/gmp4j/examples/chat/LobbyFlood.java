package io.gmp4j.examples.chat;

import java.io.IOException;
import java.util.function.BooleanSupplier;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The slow-reader tests' load: client {@code a} floods the lobby with numbered lines
 * {@code p k xxx…} (a kilobyte each) while it and {@code b} count every one with a {@link Tally};
 * each round returns once both have all lines sent so far, so no one but a stalled reader
 * falls behind. {@link #finish} ends a's session and checks that a and b each got every line
 * exactly once.
 */
final class LobbyFlood {
    /** What makes each line about a kilobyte long. */
    static final String PAD = "x".repeat(1000);
    /** Lines a round: below the tests' queue of 128, so a and b's queues never fill within a round. */
    static final int PER_ROUND = 100;
    /** 500 rounds of 100 lines, 50 MB: far more than the socket buffers a stalled reader can hide. */
    static final int MAX_ROUNDS = 500;

    private final ChatClient a;
    /** The tallies of a's and b's lines. */
    final Tally ta;
    final Tally tb;
    private int sent;

    /** Starts a tally for each of {@code a} (the sender) and {@code b}. */
    LobbyFlood(ChatClient a, ChatClient b) {
        this.a = a;
        this.ta = Tally.start(a);
        this.tb = Tally.start(b);
    }

    /** The lines sent so far, numbered 0 to {@code sent() - 1}. */
    int sent() {
        return sent;
    }

    /** a sends the next {@code n} lines; returns once a and b both have them. */
    void round(int n) throws IOException, InterruptedException {
        for (int k = 0; k < n; k++) {
            a.send("p " + sent++ + " " + PAD);
        }
        ta.awaitCount(sent);
        tb.awaitCount(sent);
    }

    /**
     * Rounds of {@link #PER_ROUND} lines until {@code done} holds, at most {@link #MAX_ROUNDS};
     * fails with {@code never} (and the lines sent) if it still does not.
     */
    void roundsUntil(BooleanSupplier done, String never) throws IOException, InterruptedException {
        for (int round = 0; round < MAX_ROUNDS && !done.getAsBoolean(); round++) {
            round(PER_ROUND);
        }
        assertTrue(done.getAsBoolean(), never + " after " + sent + " lines");
    }

    /** Ends a's session (a sees the end of stream, b the notice) and checks each got every line once. */
    void finish() throws IOException {
        tb.stopAt("*** a left");
        a.socket.shutdownOutput();
        ta.finish();
        tb.finish();
        assertEquals(sent, ta.count(), "a got every line once");
        assertEquals(sent, tb.count(), "b got every line once");
    }
}
