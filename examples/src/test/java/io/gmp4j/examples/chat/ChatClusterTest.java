package io.gmp4j.examples.chat;

import io.gmp4j.TestSupport;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.TestWatcher;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Three chat nodes ({@code ChatDemo --cluster}), each in a JVM of its own, on a cluster name and
 * Hazelcast ports of their own (a random suffix and base) so parallel runs never meet; raw TCP
 * clients spread over them. The nicknames test runs first; the rooms test kills a node and
 * starts it again.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ChatClusterTest {
    private static final int NODES = 3;
    private static final List<ChatNode> nodes = new ArrayList<>();
    private static String cluster;
    private static int basePort;
    private static String members;

    /** The nodes' output, printed when a test fails. */
    @RegisterExtension
    static final TestWatcher DUMP = new TestWatcher() {
        @Override
        public void testFailed(ExtensionContext context, Throwable cause) {
            for (ChatNode n : nodes) {
                System.err.println("--- node " + n.name + " output ---\n" + n.output() + "--- end of node " + n.name + " ---");
            }
        }
    };

    @BeforeAll
    static void startNodes() throws Exception {
        cluster = "gmp4j-chat-test-" + UUID.randomUUID().toString().substring(0, 8);
        basePort = 20000 + ThreadLocalRandom.current().nextInt(20000);
        List<String> m = new ArrayList<>();
        for (int i = 0; i < NODES; i++) {
            m.add("127.0.0.1:" + (basePort + i));
        }
        members = String.join(",", m);
        // The first alone (it finds no one and starts the cluster), then the others together:
        // three JVMs joining at once on two busy cores can take longer than the join timeout.
        nodes.add(startNode(0));
        nodes.get(0).awaitStarted();
        for (int i = 1; i < NODES; i++) {
            nodes.add(startNode(i));
        }
        for (ChatNode n : nodes) {
            n.awaitStarted();
            n.awaitPeersJoined(NODES - 1);
        }
    }

    private static ChatNode startNode(int i) throws IOException {
        // No idle limit; queues deep enough that a tally thread on two busy cores is never "too slow".
        return ChatNode.start("n" + i, cluster, basePort + i, members, "--idle", "0", "--queue", "65536");
    }

    @AfterAll
    static void stopNodes() throws InterruptedException {
        for (ChatNode n : nodes) {
            n.close();
        }
    }

    /**
     * Pairs of clients on two nodes claim the same nickname (in another case) at once: exactly
     * one of each pair gets it; once the winner quits, the loser gets it.
     */
    @Test
    @Order(1)
    void aNicknameIsUniqueAcrossNodes() throws Exception {
        int pairs = TestSupport.stress(20, 8);
        List<ChatClient> a = new ArrayList<>();
        List<ChatClient> b = new ArrayList<>();
        try {
            for (int k = 0; k < pairs; k++) {
                a.add(connect(nodes.get(0)));
                b.add(connect(nodes.get(1)));
            }
            for (int k = 0; k < pairs; k++) {
                a.get(k).send("dup" + k);
                b.get(k).send("DUP" + k);
            }
            for (int k = 0; k < pairs; k++) {
                boolean aWon = loginAnswer(a.get(k), "dup" + k);
                boolean bWon = loginAnswer(b.get(k), "DUP" + k);
                assertTrue(aWon ^ bWon, "pair " + k + ": exactly one gets the nickname; a " + aWon + ", b " + bWon);
                ChatClient winner = aWon ? a.get(k) : b.get(k);
                ChatClient loser = aWon ? b.get(k) : a.get(k);
                String loserNick = aWon ? "DUP" + k : "dup" + k;
                // Taken while the winner has it, also when the loser's node has heard of the winner.
                winner.send("/who");
                winner.await(l -> l.startsWith("*** in lobby:"));
                loser.send(loserNick);
                assertTrue(!loginAnswer(loser, loserNick), "taken while the winner is logged in");
                winner.send("/quit");
                winner.readToEnd();
                // The name is freed cluster-wide once the winner's node has stopped its holder.
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TestSupport.TIMEOUT_S);
                boolean got;
                do {
                    assertTrue(System.nanoTime() < deadline, "the quit winner's nickname was never freed");
                    loser.send(loserNick);
                    got = loginAnswer(loser, loserNick);
                } while (!got);
                loser.send("/quit");
                loser.readToEnd();
            }
        } finally {
            for (ChatClient c : a) {
                c.close();
            }
            for (ChatClient c : b) {
                c.close();
            }
        }
    }

    /** /msg, /nick and /who across nodes; a private message to a user who is gone is refused. */
    @Test
    @Order(2)
    void privateMessagesAndRenamesCrossNodes() throws Exception {
        try (ChatClient alice = ChatClient.login(nodes.get(0).address(), "alice");
             ChatClient bob = ChatClient.login(nodes.get(1).address(), "bob")) {
            alice.awaitWho("lobby", Set.of("alice", "bob"));
            bob.awaitWho("lobby", Set.of("alice", "bob"));
            bob.send("/msg ALICE psst");
            assertEquals("[pm] bob: psst", alice.await(l -> l.startsWith("[pm")));
            assertEquals("[pm -> alice] psst", bob.await(l -> l.startsWith("[pm")));
            bob.send("/nick robert");
            assertEquals("*** bob is now known as robert", alice.await(l -> l.contains(" is now known as ")));
            assertEquals("*** bob is now known as robert", bob.await(l -> l.contains(" is now known as ")));
            alice.awaitWho("lobby", Set.of("alice", "robert"));
            alice.send("/msg bob still there?");
            assertEquals("*** no such nick: bob", alice.await(l -> l.startsWith("*** no such nick")));
            alice.send("/msg robert hi robert");
            assertEquals("[pm] alice: hi robert", bob.await(l -> l.startsWith("[pm")));
            // The old nickname is free again, cluster-wide: alice takes it.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TestSupport.TIMEOUT_S);
            String answer;
            do {
                assertTrue(System.nanoTime() < deadline, "bob's old nickname was never freed");
                alice.send("/nick bob");
                answer = alice.await(l -> l.equals("*** alice is now known as bob") || l.equals("*** nickname bob is taken"));
            } while (answer.endsWith("taken"));
            assertEquals("*** alice is now known as bob", bob.await(l -> l.contains(" is now known as ")));
            alice.send("/quit");
            alice.readToEnd();
            bob.send("/quit");
            bob.readToEnd();
        }
    }

    private static ChatClient connect(ChatNode n) throws IOException {
        ChatClient c = new ChatClient(n.address());
        c.await(l -> l.equals("*** choose a nickname:"));
        return c;
    }

    /** True for the hello, false for "taken", after sending {@code nick} as a login. */
    private static boolean loginAnswer(ChatClient c, String nick) throws IOException {
        String l = c.await(s -> s.startsWith("*** hello " + nick + ";") || s.equals("*** nickname " + nick + " is taken, choose another:"));
        return l.startsWith("*** hello ");
    }

    /**
     * Clients on three nodes in two rooms: every line reaches every member of its room exactly
     * once and no one else; a node killed with SIGKILL is seen leaving by the others' clients
     * (each of its users once, with the reason), lines among the rest are again delivered exactly
     * once, and the node started again rejoins the rooms.
     */
    @Test
    @Order(3)
    void roomsSpanTheNodesAndANodeKilledLeavesThem() throws Exception {
        int users = TestSupport.stress(120, 60);
        int perSender = TestSupport.stress(50, 10);
        String[] roomNames = {"rA", "rB"};
        Map<String, String> roomOf = new HashMap<>();
        List<ChatClient> clients = new ArrayList<>();
        List<RoomTally> tallies = new ArrayList<>();
        try {
            for (int i = 0; i < users; i++) {
                roomOf.put("u" + i, roomNames[(i / NODES) % 2]);
            }
            for (int i = 0; i < users; i++) {
                String nick = "u" + i;
                String room = roomOf.get(nick);
                ChatClient c = ChatClient.login(nodes.get(i % NODES).address(), nick);
                clients.add(c);
                c.send("/join " + room);
                c.await(l -> l.equals("*** " + nick + " joined " + room));
            }
            // Every node sees every user: /who on each node lists the room's users of all nodes.
            for (int n = 0; n < NODES; n++) {
                for (String room : roomNames) {
                    int i = firstOn(n, room, roomOf, users);
                    clients.get(i).awaitWho(room, usersIn(room, roomOf, users, -1));
                }
            }
            ChatClient any = clients.get(0);
            any.send("/rooms");
            assertEquals("*** rooms: lobby (0) rA (" + users / 2 + ") rB (" + users / 2 + ")",
                    any.await(l -> l.startsWith("*** rooms:")));
            for (int i = 0; i < users; i++) {
                tallies.add(RoomTally.start(clients.get(i), roomOf.get("u" + i), roomOf, perSender));
            }

            // Round 0: everyone talks.
            sendRound(0, clients, users, perSender, -1);
            for (int i = 0; i < users; i++) {
                int expect = usersIn(roomOf.get("u" + i), roomOf, users, -1).size() * perSender;
                tallies.get(i).await(t -> t.count(0) == expect, expect + " lines of round 0");
            }

            // Kill node 2: the others' clients see each of its users leave their room, once.
            int killed = NODES - 1;
            long t0 = System.nanoTime();
            nodes.get(killed).kill();
            long slowest = 0;
            for (int i = 0; i < users; i++) {
                if (i % NODES == killed) {
                    continue;
                }
                Set<String> expectLeft = new HashSet<>(usersIn(roomOf.get("u" + i), roomOf, users, -1));
                expectLeft.removeAll(usersIn(roomOf.get("u" + i), roomOf, users, killed));
                tallies.get(i).await(t -> t.leftDown().equals(expectLeft), "the killed node's users leaving " + expectLeft);
                slowest = Math.max(slowest, System.nanoTime() - t0);
            }
            System.out.printf("ChatClusterTest: kill -9 of a node to the last of its users' leave lines on the others: %d ms%n",
                    TimeUnit.NANOSECONDS.toMillis(slowest));
            for (int i = killed; i < users; i += NODES) {
                clients.get(i).close();
            }

            // Round 1: the survivors talk; exactly once again, among them only.
            sendRound(1, clients, users, perSender, killed);
            for (int i = 0; i < users; i++) {
                if (i % NODES != killed) {
                    int expect = usersIn(roomOf.get("u" + i), roomOf, users, killed).size() * perSender;
                    tallies.get(i).await(t -> t.count(1) == expect, expect + " lines of round 1");
                }
            }

            // The node comes back (a new JVM, a new node id): it rejoins the rooms.
            ChatNode back = startNode(killed);
            nodes.set(killed, back);
            back.awaitStarted();
            back.awaitPeersJoined(NODES - 1);
            try (ChatClient c = ChatClient.login(back.address(), "back")) {
                c.send("/join rA");
                c.await(l -> l.equals("*** back joined rA"));
                Set<String> expectWho = new TreeSet<>(usersIn("rA", roomOf, users, killed));
                expectWho.add("back");
                c.awaitWho("rA", expectWho);
                c.send("hello from back");
                for (int i = 0; i < users; i++) {
                    if (i % NODES != killed) {
                        String room = roomOf.get("u" + i);
                        RoomTally t = tallies.get(i);
                        if (room.equals("rA")) {
                            t.await(x -> x.joined("back") && x.times("[rA] back: hello from back") == 1, "back's join and line");
                        }
                    }
                }
                // A node that stops answering (SIGSTOP: no FIN, no RST) is found out by the
                // cluster's failure detection; its users leave the same way.
                long t1 = System.nanoTime();
                back.signal("STOP");
                for (int i = 0; i < users; i++) {
                    if (i % NODES != killed && roomOf.get("u" + i).equals("rA")) {
                        tallies.get(i).await(t -> t.leftDown().contains("back"), "back leaving after SIGSTOP");
                    }
                }
                System.out.printf("ChatClusterTest: SIGSTOP of a node to the last of its users' leave lines on the others: %d ms%n",
                        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t1));
                back.kill();
                // Nothing of rA reached rB's members; no line twice anywhere (checked as read).
                for (int i = 0; i < users; i++) {
                    if (i % NODES != killed) {
                        RoomTally t = tallies.get(i);
                        assertNull(t.failure());
                        if (roomOf.get("u" + i).equals("rB")) {
                            assertTrue(!t.joined("back") && t.times("[rA] back: hello from back") == 0, "rB saw rA");
                        }
                    }
                }
            }
        } finally {
            for (ChatClient c : clients) {
                c.close();
            }
        }
    }

    /** Every live client sends its lines {@code m<round> i k}, interleaved across clients. */
    private static void sendRound(int round, List<ChatClient> clients, int users, int perSender, int killed) throws IOException {
        for (int k = 0; k < perSender; k++) {
            for (int i = 0; i < users; i++) {
                if (i % NODES != killed) {
                    clients.get(i).send("m" + round + " " + i + " " + k);
                }
            }
        }
    }

    /** The users in {@code room}, leaving out those of node {@code without} (-1: none). */
    private static Set<String> usersIn(String room, Map<String, String> roomOf, int users, int without) {
        Set<String> s = new TreeSet<>();
        for (int i = 0; i < users; i++) {
            if (roomOf.get("u" + i).equals(room) && i % NODES != without) {
                s.add("u" + i);
            }
        }
        return s;
    }

    private static int firstOn(int node, String room, Map<String, String> roomOf, int users) {
        for (int i = node; i < users; i += NODES) {
            if (roomOf.get("u" + i).equals(room)) {
                return i;
            }
        }
        throw new AssertionError("no user of node " + node + " in " + room);
    }
}
