package io.gmp4j.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gmp4j.TestSupport;
import io.gmp4j.actor.ActorRef;
import io.gmp4j.actor.ActorSystem;
import io.gmp4j.actor.Behavior;
import io.gmp4j.actor.Overflow;
import io.gmp4j.actor.Props;
import io.gmp4j.chan.Chan;
import io.vertx.core.buffer.Buffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * Two real nodes: {@link ClusterChild} in a child JVM, this JVM the other, on a cluster name and
 * Hazelcast ports of their own (a random suffix and base), so parallel runs never meet.
 */
class ClusterNodesTest {
    private static final Duration ASK = Duration.ofSeconds(20);
    private static PeerProcess peer;
    private static String childId;
    private static ActorSystem system;
    private static ClusterNode node;

    /** The child's output, printed when a test fails. */
    @RegisterExtension
    static final TestWatcher DUMP = ClusterTests.printPeerOutputOnFailure(() -> peer == null ? List.of() : List.of(peer));

    @BeforeAll
    static void startNodes() throws Exception {
        String cluster = ClusterTests.uniqueClusterName("gmp4j-test-");
        int childPort = ClusterTests.randomBasePort();
        int ourPort = childPort + 20;
        String members = "127.0.0.1:" + childPort + ",127.0.0.1:" + ourPort;
        peer = PeerProcess.start(ClusterChild.class, "child", cluster, childPort, members, Map.of());
        childId = peer.awaitReady();
        system = ActorSystem.create("parent");
        node = ClusterNode.join(system, ClusterConfig.builder().clusterName(cluster).hazelcastPort(ourPort)
                .members(List.of(members.split(","))).allow(Msgs.ALL).build());
    }

    /**
     * The child exits without closing its node: its JVM's shutdown leaves the cluster, and this
     * node, the survivor, removes the child's names.
     */
    @AfterAll
    static void stopNodes() throws Exception {
        try {
            if (peer != null) {
                Process child = peer.process;
                child.getOutputStream().write("exit\n".getBytes(StandardCharsets.UTF_8));
                child.getOutputStream().flush();
                if (!child.waitFor(TestSupport.TIMEOUT_S, TimeUnit.SECONDS)) {
                    child.destroyForcibly();
                }
                assertEquals(0, child.exitValue(), () -> "child node exit status; its output:\n" + peer.out);
                assertTrue(peer.out.toString().contains("EXITING"), () -> "child node did not exit; its output:\n" + peer.out);
                TestSupport.awaitCondition(() -> !node.members().contains(childId), () -> "the child is still a member");
                for (String name : List.of("echo", "counter", "probe")) {
                    TestSupport.awaitCondition(() -> node.nameEntry(name).isEmpty(),
                            () -> "the departed node's name '" + name + "' is still registered");
                }
            }
        } finally {
            ClusterTests.closeAll(peer == null ? List.of() : List.of(peer), node, system);
        }
    }

    private static <T> ActorRef<T> remote(String name) {
        return ClusterTests.remote(node, name);
    }

    @Test
    void tellAndAskRoundTrip() {
        assertTrue(node.members().contains(childId), () -> "members " + node.members() + " lack " + childId);
        ActorRef<Object> echo = remote("echo");
        assertTrue(echo.isAlive());
        assertEquals("hello", echo.<String>ask(to -> new Msgs.Echo("hello", to), ASK).get());
        // A tell whose reply address is a local actor of ours: it crosses as a RemoteRef and back.
        Chan<String> got = new Chan<>(1);
        ActorRef<String> sink = system.spawn((ctx, s) -> {
            got.trySend(s);
            return Behavior.same();
        });
        echo.tell(new Msgs.Echo("told", sink));
        assertEquals("told", got.recv());
    }

    @Test
    void aReplyToInsideAMessageIsUsedByTheRemoteSide() {
        ActorRef<Object> echo = remote("echo");
        Chan<String> got = new Chan<>(1);
        ActorRef<String> sink = system.spawn((ctx, s) -> {
            got.trySend(s);
            return Behavior.same();
        });
        echo.tell(new Msgs.Forward("shout", sink));
        assertEquals("SHOUT", got.recv());
        // The same local ref twice gets one key: the remote side sees equal refs.
        assertEquals("AGAIN", echo.<String>ask(to -> new Msgs.Forward("again", to), ASK).get());
    }

    @Test
    void handlersRunOnAnMNotOnAVertxThread() {
        Msgs.Where w = remote("echo").<Msgs.Where>ask(Msgs.WhereAmI::new, ASK).get();
        assertFalse(w.thread().startsWith("vert.x"), () -> "handler ran on " + w.thread());
        assertTrue(w.onM(), () -> "handler not on a gmp4j M: " + w.thread());
    }

    @Test
    void orderPerPairHoldsExactly() throws Exception {
        int n = TestSupport.stress(100_000, 10_000);
        ActorRef<Object> counter = remote("counter");
        String[] senders = {"a-" + UUID.randomUUID(), "b-" + UUID.randomUUID()};
        List<Thread> threads = new ArrayList<>();
        List<Msgs.Counted> reports = java.util.Collections.synchronizedList(new ArrayList<>());
        for (String s : senders) {
            threads.add(Thread.ofPlatform().start(() -> {
                for (int i = 0; i < n; i++) {
                    counter.tell(new Msgs.Count(s, i));
                }
                // Sent after the counts by the same sender: it arrives after all of them.
                reports.add(counter.<Msgs.Counted>ask(to -> new Msgs.CountReport(s, to), Duration.ofSeconds(40)).get());
            }));
        }
        for (Thread t : threads) {
            t.join(TimeUnit.SECONDS.toMillis(TestSupport.TIMEOUT_S));
            assertFalse(t.isAlive(), "a sender did not finish");
        }
        assertEquals(2, reports.size());
        for (Msgs.Counted c : reports) {
            assertEquals(new Msgs.Counted(n, 0, n - 1), c, "in order, out of order, last");
        }
    }

    @Test
    void aGadgetFrameIsRefusedWithoutTouchingItsClassAndDeliveryGoesOn() {
        ActorRef<Msgs.Probe> probe = remote("probe");
        Msgs.Probed before = probe.<Msgs.Probed>ask(Msgs.Probe::new, ASK).get();
        long key = ((RemoteRef<?>) probe).key();
        String gadget = "io.gmp4j.cluster.Gadget";
        List<Buffer> frames = List.of(
                frame(key, WireCodec.RECORD, gadget, b -> b.appendInt(1).appendByte(WireCodec.STRING).appendInt(2).appendString("rm")),
                frame(key, WireCodec.ENUM, gadget, b -> b.appendInt(2).appendString("rm")),
                frame(key, WireCodec.CUSTOM, gadget, b -> b.appendInt(0)),
                Buffer.buffer().appendByte((byte) 7)); // not even a frame header
        String address = ClusterNode.ADDRESS_PREFIX + childId;
        // On the node's send context: in order before the probe below.
        for (Buffer f : frames) {
            node.sendContext().runOnContext(v -> node.vertx().eventBus().send(address, f));
        }
        Msgs.Probed after = probe.<Msgs.Probed>ask(Msgs.Probe::new, ASK).get();
        assertEquals("null", after.initialized(), "the gadget's static initializer ran");
        assertEquals("null", after.constructed(), "a gadget was built");
        assertEquals(frames.size(), after.refused() - before.refused(), "frames refused");
        assertEquals("still", remote("echo").<String>ask(to -> new Msgs.Echo("still", to), ASK).get());
    }

    private static Buffer frame(long key, byte tag, String typeName, java.util.function.Consumer<Buffer> rest) {
        byte[] name = typeName.getBytes(StandardCharsets.UTF_8);
        Buffer b = Buffer.buffer().appendByte(ClusterNode.FRAME_VERSION).appendByte(ClusterNode.TELL).appendLong(key)
                .appendByte(tag).appendInt(name.length).appendBytes(name);
        rest.accept(b);
        return b;
    }

    @Test
    void namesAreUniqueClusterWideAndLocalOnesResolveLocally() {
        ActorRef<String> mine = system.spawn((ctx, s) -> Behavior.same());
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> node.register("echo", mine));
        assertTrue(e.getMessage().contains("'echo' is already registered cluster-wide") && e.getMessage().contains(childId), e::getMessage);
        String name = "local-" + UUID.randomUUID();
        node.register(name, mine);
        assertSame(mine, node.<String>lookup(name).orElseThrow());
        node.register(name, mine); // the same actor again: no change
        mine.stop();
        system.whenTerminated(mine).get();
        TestSupport.awaitCondition(() -> node.lookup(name).isEmpty(), () -> "name of a stopped actor still registered");
        assertTrue(node.lookup("no-such-" + UUID.randomUUID()).isEmpty());
    }

    @Test
    void aFullBlockMailboxDropsRemoteMessagesInsteadOfBlockingTheEventLoop() {
        Chan<Boolean> gate = new Chan<>(0);
        Chan<String> got = new Chan<>(10);
        // Parked on the gate, not in receive: its mailbox of one fills with the first message.
        ActorRef<String> slow = system.spawnProcess(self -> {
            gate.recv();
            for (String s; (s = self.receive(Duration.ofMillis(200))) != null; ) {
                got.send(s);
            }
            got.close();
        }, Props.DEFAULT.withMailbox(1, Overflow.BLOCK));
        ActorRef<Object> echo = remote("echo");
        long dropped = node.droppedCount();
        long dead = system.deadLetterCount();
        for (int i = 0; i < 5; i++) {
            echo.tell(new Msgs.Forward("m" + i, slow)); // the child relays each one to slow
        }
        // Relayed after the five by the same node: when it arrives, all five were handled, and
        // the event loop that handles them never waited for room.
        assertEquals("after", echo.<String>ask(to -> new Msgs.Echo("after", to), ASK).get());
        assertEquals(4, node.droppedCount() - dropped, "remote messages dropped at the full mailbox");
        assertEquals(4, system.deadLetterCount() - dead, "dead letters");
        gate.send(true);
        assertEquals("M0", got.recv());
        assertEquals(null, got.recv(), "only the first fitted");
    }

    @Test
    void anUnencodableMessageIsRefusedAtTheSender() {
        ActorRef<Object> echo = remote("echo");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> echo.tell(new java.util.Date()));
        assertTrue(e.getMessage().contains("java.util.Date") && e.getMessage().contains("register"), e::getMessage);
        assertThrows(IllegalArgumentException.class, () -> echo.ask(to -> new Object(), ASK));
    }
}
