package io.gmp4j.examples.chat;

import io.gmp4j.TestSupport;
import java.util.Arrays;
import java.util.BitSet;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * Reads everything one client of a chat cluster receives, on a thread of its own, and counts it
 * exactly: the test lines {@code [room] uJ: m<round> J K} (each at most once, each from a user of
 * the client's own room, each user's in the order it sent them: K rising), the leave lines {@code *** nick left room (node down)} (each at most
 * once, each of its own room), the join lines, and every other room line by its text.
 */
final class RoomTally extends ReaderThread {
    private final String room;
    /** Every user's room, by nickname. */
    private final Map<String, String> roomOf;
    private final int perSender;
    private final BitSet[] got = {new BitSet(), new BitSet(), new BitSet()};
    private final int[] counts = new int[got.length];
    /** Per round, the last K seen from each sender J: a user's lines arrive in the order sent. */
    private final Map<Integer, Integer>[] lastOf = newLasts();
    private final Set<String> leftDown = new HashSet<>();
    private final Set<String> joined = new HashSet<>();
    private final Map<String, Integer> other = new HashMap<>();
    /** What was wrong with a line received (the latest such line), or null. */
    private String failure;

    private RoomTally(ChatClient c, String room, Map<String, String> roomOf, int perSender) {
        super(c);
        this.room = room;
        this.roomOf = roomOf;
        this.perSender = perSender;
    }

    @SuppressWarnings("unchecked")
    private static Map<Integer, Integer>[] newLasts() {
        Map<Integer, Integer>[] m = new Map[3];
        for (int i = 0; i < m.length; i++) {
            m[i] = new HashMap<>();
        }
        return m;
    }

    static RoomTally start(ChatClient c, String room, Map<String, String> roomOf, int perSender) {
        RoomTally t = new RoomTally(c, room, roomOf, perSender);
        t.start();
        return t;
    }

    @Override
    void take(String l) {
        if (l.startsWith("[" + room + "] ")) {
            String rest = l.substring(room.length() + 3);
            int colon = rest.indexOf(": ");
            String nick = rest.substring(0, colon);
            String text = rest.substring(colon + 2);
            String[] w = text.split(" ");
            if (w.length == 3 && w[0].matches("m[0-2]")) {
                if (!room.equals(roomOf.get(nick))) {
                    failure = "a line of " + nick + " (room " + roomOf.get(nick) + ") reached a member of " + room + ": " + l;
                    return;
                }
                int r = w[0].charAt(1) - '0';
                int j = Integer.parseInt(w[1]);
                int k = Integer.parseInt(w[2]);
                int bit = j * perSender + k;
                if (got[r].get(bit)) {
                    failure = "twice: " + l;
                }
                Integer last = lastOf[r].put(j, k);
                if (last != null && last >= k) {
                    failure = "out of order: " + l + " after " + last;
                }
                got[r].set(bit);
                counts[r]++;
            } else {
                other.merge(l, 1, Integer::sum);
            }
        } else if (l.startsWith("[")) {
            failure = "a line of another room reached a member of " + room + ": " + l;
        } else if (l.endsWith(ClusterBridge.NODE_DOWN)) {
            String[] w = l.split(" ");
            if (!l.equals("*** " + w[1] + " left " + room + ClusterBridge.NODE_DOWN)) {
                failure = "a leave line of another room, or malformed: " + l;
            } else if (!leftDown.add(w[1])) {
                failure = "twice: " + l;
            }
        } else if (l.startsWith("*** ") && l.endsWith(" joined " + room)) {
            joined.add(l.split(" ")[1]);
        }
    }

    /** Waits (at most {@link TestSupport#TIMEOUT_S}) until {@code p} holds of this tally; fails at once on a failure. */
    synchronized void await(Predicate<RoomTally> p, String what) throws InterruptedException {
        boolean held = waitFor(() -> failure() != null || p.test(this), () -> getName() + " in " + room
                + ": timed out waiting for " + what + "; counts " + Arrays.toString(counts) + ", left " + leftDown);
        if (failure() != null) {
            fail(getName() + " in " + room + ": " + failure());
        }
        if (!held) {
            fail(getName() + " in " + room + ": connection ended waiting for " + what
                    + "; counts " + Arrays.toString(counts) + ", left " + leftDown);
        }
    }

    /** Test lines of round {@code r} received. */
    synchronized int count(int r) {
        return counts[r];
    }

    synchronized Set<String> leftDown() {
        return Set.copyOf(leftDown);
    }

    synchronized boolean joined(String nick) {
        return joined.contains(nick);
    }

    /** How often the room line {@code line} (not a test line) was received. */
    synchronized int times(String line) {
        return other.getOrDefault(line, 0);
    }

    /** What was wrong with a line received, or else what stopped the reading early; null if neither. */
    synchronized String failure() {
        Throwable t = readingFailure();
        return failure != null ? failure : t != null ? "reading failed: " + t : null;
    }
}
