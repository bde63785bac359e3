package io.gmp4j.cluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.gmp4j.TestSupport;
import io.gmp4j.actor.ActorRef;
import io.gmp4j.actor.ActorSystem;
import io.gmp4j.actor.Behavior;
import io.gmp4j.actor.ExitSignal;
import io.gmp4j.actor.Reply;
import io.gmp4j.actor.Terminated;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.extension.TestWatcher;

/**
 * Three real nodes: two {@link ClusterPeer}s ("A", "B") in child JVMs and this JVM ("P"), on a
 * cluster of their own; tests that kill, close or pause a node start a fourth for it. Watches,
 * links, asks and names across nodes; a killed and a closed node seen by the survivors; exact
 * accounting under load; a paused node parks only its own senders.
 */
class ClusterThreeNodesTest {
    private static final Duration ASK = Duration.ofSeconds(30);
    /** Long enough that a paused peer is not removed while the bound test holds it. */
    private static final String FAILURE_TIMEOUT_S = "30";
    private static final int OUTBOUND_LIMIT = 64;
    private static final List<PeerProcess> PEERS = new ArrayList<>();
    private static String cluster;
    private static int basePort;
    private static String members;
    private static ActorSystem system;
    private static ClusterNode node;
    private static PeerProcess a;
    private static PeerProcess b;

    /** The peers' output, printed when a test fails. */
    @RegisterExtension
    static final TestWatcher DUMP = ClusterTests.printPeerOutputOnFailure(() -> PEERS);

    @BeforeAll
    static void startNodes() throws Exception {
        cluster = ClusterTests.uniqueClusterName("gmp4j-3n-");
        basePort = ClusterTests.randomBasePort();
        // P, A, B and up to three more peers, each with a port of its own.
        StringBuilder m = new StringBuilder();
        for (int i = 0; i < 6; i++) {
            m.append(i == 0 ? "" : ",").append("127.0.0.1:").append(basePort + 10 * i);
        }
        members = m.toString();
        a = peer("A", 1);
        b = peer("B", 2);
        a.awaitReady();
        b.awaitReady();
        system = ActorSystem.create("p");
        node = ClusterNode.join(system, ClusterConfig.builder().clusterName(cluster).hazelcastPort(basePort)
                .members(List.of(members.split(","))).failureTimeout(Duration.ofSeconds(Long.parseLong(FAILURE_TIMEOUT_S)))
                .outboundLimit(OUTBOUND_LIMIT).allow(Msgs.ALL).build());
        TestSupport.awaitCondition(() -> node.members().size() >= 3, () -> "members: " + node.members());
    }

    private static PeerProcess peer(String tag, int slot) throws Exception {
        PeerProcess p = PeerProcess.start(tag, cluster, basePort + 10 * slot, members,
                Map.of(ClusterConfig.FAILURE_TIMEOUT_PROPERTY, FAILURE_TIMEOUT_S));
        PEERS.add(p);
        return p;
    }

    @AfterAll
    static void stopNodes() {
        ClusterTests.closeAll(PEERS, node, system);
    }

    private static <T> ActorRef<T> remote(String name) {
        return ClusterTests.remote(node, name);
    }

    /** Spawns a victim registered as {@code name} on the peer {@code tag}; returns its ref. */
    private static ActorRef<Object> victimOn(String tag, String name) {
        assertEquals("spawned", remote(tag + ".echo").<String>ask(to -> new Msgs.Spawn(name, to), ASK).get());
        return remote(name);
    }

    /** A local actor that queues everything it receives. */
    private static final class Collector {
        final BlockingQueue<Object> got = new LinkedBlockingQueue<>();
        final ActorRef<Object> ref = system.spawn((ctx, m) -> {
            got.add(m);
            return Behavior.same();
        });

        /** The next message that matches, within the test timeout; others are kept. */
        <M> M next(Class<M> type, Predicate<M> match) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TestSupport.TIMEOUT_S);
            List<Object> other = new ArrayList<>();
            try {
                while (true) {
                    Object m = got.poll(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
                    if (m == null) {
                        fail("no " + type.getSimpleName() + " came; other messages: " + other);
                    }
                    if (type.isInstance(m) && match.test(type.cast(m))) {
                        return type.cast(m);
                    }
                    other.add(m);
                }
            } finally {
                got.addAll(other);
            }
        }
    }

    /** A local actor that watches {@code target} and queues what it receives. */
    private static Collector watching(ActorRef<?> target) throws InterruptedException {
        Collector c = new Collector();
        spawnAfter(c, ctx -> ctx.watch(target));
        return c;
    }

    /**
     * Spawns an actor that runs {@code setup} (its watches and links), then queues what it
     * receives in {@code c}; returns once the setup has run (a setup runs on the actor's first
     * turn, not in spawn).
     */
    private static ActorRef<Object> spawnAfter(Collector c, java.util.function.Consumer<io.gmp4j.actor.ActorContext<Object>> setup)
            throws InterruptedException {
        Object ready = new Object();
        ActorRef<Object> ref = system.spawn(Behavior.setup(ctx -> {
            setup.accept(ctx);
            c.got.add(ready);
            return (x, m) -> {
                c.got.add(m);
                return Behavior.same();
            };
        }));
        c.next(Object.class, m -> m == ready);
        return ref;
    }


    @Test
    void tellAndAskAcrossThreeNodes() {
        ActorRef<Object> echoA = remote("A.echo");
        ActorRef<Object> echoB = remote("B.echo");
        assertEquals("a", echoA.<String>ask(to -> new Msgs.Echo("a", to), ASK).get());
        assertEquals("b", echoB.<String>ask(to -> new Msgs.Echo("b", to), ASK).get());
        // P asks A to tell B to answer P: the reply address crosses two hops.
        assertEquals("via A", echoA.<String>ask(to -> new Msgs.Relay(echoB, new Msgs.Echo("via A", to)), ASK).get());
    }

    @Test
    void aWatcherHearsOfARemoteFailureAndStopWithTheirReasons() throws Exception {
        ActorRef<Object> crasher = victimOn("A", "A.crasher");
        ActorRef<Object> stopper = victimOn("A", "A.stopper");
        Collector wc = watching(crasher);
        Collector ws = watching(stopper);
        Reply<Terminated> viaReply = system.whenTerminated(crasher);
        // B watches A's crasher too and reports to us: a watch between two other nodes.
        Collector fromB = new Collector();
        remote("B.echo").tell(new Msgs.WatchFor(crasher, fromB.ref));
        barrier("B");
        crasher.tell("crash");
        stopper.tell("stop");
        Terminated t = wc.next(Terminated.class, x -> true);
        assertEquals(crasher, t.ref());
        RemoteActorException e = assertInstanceOf(RemoteActorException.class, t.reason());
        assertEquals(IllegalStateException.class.getName(), e.remoteClassName());
        assertEquals("boom in A.crasher", e.getMessage());
        assertInstanceOf(RemoteActorException.class, viaReply.get().reason());
        assertNull(ws.next(Terminated.class, x -> true).reason(), "a normal stop has no reason");
        Msgs.Down d = fromB.next(Msgs.Down.class, x -> true);
        assertEquals("remote " + IllegalStateException.class.getName(), d.reason());
        // Watching an actor that is gone: one notice at once.
        Collector late = watching(stopper);
        assertInstanceOf(Terminated.class, late.next(Terminated.class, x -> true));
    }

    /**
     * After a round trip with A (answered after any notice A sent before it), the watcher's
     * own answer (queued after any notice it got) shows exactly the notices that came.
     */
    @Test
    void anUnwatchedActorSendsNoNoticeAndAWatchGivesExactlyOne() throws Exception {
        ActorRef<Object> v = victimOn("A", "A.unwatched");
        ActorRef<Object> w2 = victimOn("A", "A.watched");
        record Count(ActorRef<Integer> replyTo) {
        }
        int watchesBefore = node.monitors().sizes()[0];
        Collector ready = new Collector();
        ActorRef<Object> watcher = system.spawn(Behavior.setup(ctx -> {
            ctx.watch(v);
            ctx.watch(w2);
            ctx.watch(w2); // one watch: still one notice
            ctx.unwatch(v);
            ready.got.add("ready");
            int[] notices = {0};
            return (x, m) -> {
                if (m instanceof Terminated) {
                    notices[0]++;
                } else if (m instanceof Count c) {
                    c.replyTo().tell(notices[0]);
                }
                return Behavior.same();
            };
        }));
        ready.next(String.class, "ready"::equals);
        assertEquals(watchesBefore + 1, node.monitors().sizes()[0], "the unwatched actor's watch is still on record");
        Collector seen = watching(w2);
        barrier("A"); // the watches and the unwatch are at A before the stops
        v.tell("stop");
        w2.tell("stop");
        seen.next(Terminated.class, x -> true);
        TestSupport.awaitCondition(() -> !node.lookup("A.unwatched").isPresent(), () -> "A.unwatched still registered");
        barrier("A");
        assertEquals(1, watcher.<Integer>ask(Count::new, ASK).get(), "notices: the unwatched one must not come");
    }

    @Test
    void linksAcrossNodesActAsLocally() throws Exception {
        // A trapping actor here, linked to A's actor: the failure arrives as an ExitSignal.
        ActorRef<Object> v1 = victimOn("A", "A.linked1");
        Collector trap = new Collector();
        spawnAfter(trap, ctx -> {
            ctx.trapExits(true);
            ctx.link(v1);
        });
        barrier("A");
        v1.tell("crash");
        ExitSignal s = trap.next(ExitSignal.class, x -> true);
        assertEquals(v1, s.ref());
        assertEquals(IllegalStateException.class.getName(), assertInstanceOf(RemoteActorException.class, s.reason(),
                () -> "reason: " + s.reason()).remoteClassName());

        // A non-trapping actor here dies of the remote failure.
        ActorRef<Object> v2 = victimOn("A", "A.linked2");
        ActorRef<Object> dies = spawnAfter(new Collector(), ctx -> ctx.link(v2));
        Reply<Terminated> diesEnd = system.whenTerminated(dies);
        barrier("A");
        v2.tell("crash");
        assertInstanceOf(RemoteActorException.class, diesEnd.get().reason());

        // A normal stop of a linked remote actor kills nobody; a trapping one is told.
        ActorRef<Object> v3 = victimOn("A", "A.linked3");
        ActorRef<Object> survives = spawnAfter(new Collector(), ctx -> ctx.link(v3));
        Collector trap3 = new Collector();
        spawnAfter(trap3, ctx -> {
            ctx.trapExits(true);
            ctx.link(v3);
        });
        barrier("A");
        v3.tell("stop");
        assertNull(trap3.next(ExitSignal.class, x -> true).reason());
        assertTrue(survives.isAlive());

        // The other way: A's actor linked to ours dies when ours fails, and we see why.
        ActorRef<Object> ours = system.spawn((ctx, m) -> {
            throw new UnsupportedOperationException("ours failed");
        });
        assertEquals("linked", remote("A.echo").<String>ask(to -> new Msgs.LinkFor("A.linker", ours, to), ASK).get());
        ActorRef<Object> linker = remote("A.linker");
        Reply<Terminated> linkerEnd = system.whenTerminated(linker);
        barrier("A");
        ours.tell("go");
        RemoteActorException why = assertInstanceOf(RemoteActorException.class, linkerEnd.get().reason());
        assertEquals(UnsupportedOperationException.class.getName(), why.remoteClassName());
        assertTrue(survives.isAlive());
    }

    /**
     * Supervision stays local (a supervisor's children are spawned from its specs, here), yet
     * a supervised child may link to a remote actor: the remote failure kills the child and
     * its local supervisor restarts it, as in OTP.
     */
    @Test
    void aLocalSupervisorRestartsAChildKilledByARemoteLink() throws Exception {
        ActorRef<Object> v = victimOn("A", "A.supervised-peer");
        Collector starts = new Collector();
        java.util.concurrent.atomic.AtomicInteger incarnation = new java.util.concurrent.atomic.AtomicInteger();
        io.gmp4j.actor.Supervisor sup = system.spawnSupervisor(io.gmp4j.actor.SupervisorSpec.builder()
                .intensity(3, Duration.ofSeconds(30))
                .child(io.gmp4j.actor.ChildSpec.behavior("linker", Behavior.<Object>setup(ctx -> {
                    int n = incarnation.incrementAndGet();
                    if (n == 1) {
                        ctx.link(v); // only the first incarnation: the second must live
                    }
                    starts.got.add("start " + n);
                    return (x, m) -> Behavior.same();
                })))
                .build());
        starts.next(String.class, "start 1"::equals);
        barrier("A");
        v.tell("crash");
        starts.next(String.class, "start 2"::equals);
        assertTrue(sup.isAlive(), "the supervisor restarted its child and lives");
        sup.stop();
    }

    @Test
    void namesAppearAndGoAcrossNodes() throws Exception {
        Collector names = new Collector();
        node.subscribeNames("A.n-", names.ref);
        ActorRef<Object> n1 = victimOn("A", "A.n-1");
        NameEvent.Registered r = names.next(NameEvent.Registered.class, x -> x.name().equals("A.n-1"));
        assertEquals(n1, r.ref());
        n1.tell("stop");
        names.next(NameEvent.Unregistered.class, x -> x.name().equals("A.n-1"));
        // A late subscriber is told the names there are now.
        victimOn("A", "A.n-2");
        Collector late = new Collector();
        node.subscribeNames("A.n-", late.ref);
        late.next(NameEvent.Registered.class, x -> x.name().equals("A.n-2"));
    }

    @Test
    void aKilledNodeIsSeenByWatchersLinksAsksAndNames() throws Exception {
        PeerProcess c = peer("C", 3);
        String cId = c.awaitReady();
        ActorRef<Object> v = victimOn("C", "C.victim");
        Collector w = watching(v);
        Collector trap = new Collector();
        spawnAfter(trap, ctx -> {
            ctx.trapExits(true);
            ctx.link(v);
        });
        Collector fromA = new Collector();
        remote("A.echo").tell(new Msgs.WatchFor(v, fromA.ref));
        Collector names = new Collector();
        node.subscribeNames("C.", names.ref);
        names.next(NameEvent.Registered.class, x -> x.name().equals("C.victim"));
        barrier("A");
        barrier("C");
        Reply<Object> pending = v.ask(to -> "no answer to this", Duration.ofSeconds(TestSupport.TIMEOUT_S));
        long t0 = System.nanoTime();
        c.kill();
        Terminated t = w.next(Terminated.class, x -> true);
        long detectedMs = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
        System.out.println("cluster: kill -9 to Terminated(node down) in " + detectedMs + " ms");
        NodeDownException down = assertInstanceOf(NodeDownException.class, t.reason());
        assertEquals(cId, down.nodeId());
        assertTrue(down.getMessage().contains("node down"), down.getMessage());
        assertInstanceOf(NodeDownException.class, trap.next(ExitSignal.class, x -> true).reason());
        assertEquals("node down", fromA.next(Msgs.Down.class, x -> true).reason());
        ExecutionException ex = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                () -> pending.toCompletableFuture().get(TestSupport.TIMEOUT_S, TimeUnit.SECONDS));
        assertInstanceOf(NodeDownException.class, ex.getCause());
        names.next(NameEvent.Unregistered.class, x -> x.name().equals("C.victim"));
        names.next(NameEvent.Unregistered.class, x -> x.name().equals("C.echo"));
        // The survivors keep serving.
        assertEquals("still", remote("A.echo").<String>ask(to -> new Msgs.Echo("still", to), ASK).get());
    }

    @Test
    void aClosedNodeIsSeenAsDownByWatchersAndLinks() throws Exception {
        PeerProcess d = peer("D", 4);
        String dId = d.awaitReady();
        ActorRef<Object> echo = remote("D.echo");
        Collector w = watching(echo);
        ActorRef<Object> linked = spawnAfter(new Collector(), ctx -> ctx.link(echo));
        Reply<Terminated> linkedEnd = system.whenTerminated(linked);
        barrier("D");
        d.leave();
        assertEquals(0, d.process.exitValue(), () -> "peer D's exit status; its output:\n" + d.out);
        assertEquals(dId, assertInstanceOf(NodeDownException.class, w.next(Terminated.class, x -> true).reason()).nodeId());
        assertInstanceOf(NodeDownException.class, linkedEnd.get().reason(), "a non-trapping linked actor dies of node down");
        TestSupport.awaitCondition(() -> !node.members().contains(dId), () -> "D still a member");
    }

    /**
     * Every node sends to the counters of the other two for the soak's time; each counter then
     * reports exactly what each sender sent, in order (6 pairs, nothing lost or duplicated).
     */
    @Test
    void soakAcrossThreeNodesDeliversEveryMessageOnceInOrder() throws Exception {
        long millis = TestSupport.stress(60_000, 3_000);
        String run = UUID.randomUUID().toString().substring(0, 6);
        Collector sent = new Collector();
        String[][] pairs = {{"A", "B"}, {"B", "A"}, {"A", "P"}, {"B", "P"}};
        // The counter on P: local, reached from A and B over the wire.
        ActorRef<Object> pCounter = system.spawn(ClusterPeer.counter());
        node.register("P.counter." + run, pCounter);
        for (String[] pair : pairs) {
            ActorRef<Object> counter = pair[1].equals("P") ? pCounter : remote(pair[1] + ".counter");
            remote(pair[0] + ".echo").tell(new Msgs.BlastFor(run + pair[0] + ">" + pair[1], counter, millis, sent.ref));
        }
        List<Thread> ours = new ArrayList<>();
        List<Msgs.Sent> oursSent = java.util.Collections.synchronizedList(new ArrayList<>());
        for (String to : List.of("A", "B")) {
            ActorRef<Object> counter = remote(to + ".counter");
            ours.add(Thread.ofPlatform().start(() -> {
                long end = System.nanoTime() + millis * 1_000_000L;
                int seq = 0;
                while (System.nanoTime() < end) {
                    for (int i = 0; i < 100; i++) {
                        counter.tell(new Msgs.Count(run + "P>" + to, seq++));
                    }
                }
                oursSent.add(new Msgs.Sent(run + "P>" + to, seq));
            }));
        }
        List<Msgs.Sent> all = new ArrayList<>();
        for (int i = 0; i < pairs.length; i++) {
            all.add(sent.next(Msgs.Sent.class, x -> true));
        }
        for (Thread t : ours) {
            t.join();
        }
        all.addAll(oursSent);
        long total = 0;
        for (Msgs.Sent s : all) {
            String to = s.sender().substring(s.sender().indexOf('>') + 1);
            ActorRef<Object> counter = to.equals("P") ? pCounter : remote(to + ".counter");
            // Asked through the sender's node, so the report comes after that sender's counts.
            String from = s.sender().substring(run.length(), s.sender().indexOf('>'));
            Msgs.Counted got;
            if (from.equals("P")) {
                got = counter.<Msgs.Counted>ask(r -> new Msgs.CountReport(s.sender(), r), ASK).get();
            } else {
                ActorRef<Object> relay = remote(from + ".echo");
                got = relay.<Msgs.Counted>ask(r -> new Msgs.Relay(counter, new Msgs.CountReport(s.sender(), r)), ASK).get();
            }
            assertEquals(new Msgs.Counted(s.n(), 0, (int) s.n() - 1), got, "pair " + s.sender());
            total += s.n();
        }
        System.out.println("cluster soak: " + total + " messages over 6 pairs in " + millis + " ms, each once and in order");
        assertTrue(total > 0);
    }

    /**
     * A paused node (SIGSTOP) stops reading: its sender here parks at the outbound bound, a
     * behaviour actor's send to it is dropped and counted, and sends to a healthy node go on.
     * Resumed, it gets every message the goroutine sent, once and in order.
     */
    @Test
    void aPausedNodeParksOnlyItsOwnSendersAndLosesNothing() throws Exception {
        PeerProcess e = peer("E", 5);
        String eId = e.awaitReady();
        ActorRef<Object> counter = remote("E.counter");
        ActorRef<Object> echoA = remote("A.echo");
        int n = TestSupport.stress(20_000, 5_000);
        byte[] pad = new byte[16 << 10];
        String sender = "paused-" + UUID.randomUUID();
        barrier("E");
        // A paused member stalls Hazelcast operations on the partitions it owns or is taking
        // over, such as the first lookup of a node's address: let E's migration finish, and
        // have this node know its route to A, before E stops answering.
        TestSupport.awaitCondition(node::clusterSafe, () -> "partitions still migrating to E");
        barrier("A");
        e.signal("STOP");
        Reply<Terminated> done;
        long behaviourDropped;
        try {
            ActorRef<Object> blaster = system.spawnProcess(self -> {
                for (int i = 0; i < n; i++) {
                    counter.tell(new Msgs.Padded(sender, i, pad));
                }
            });
            done = system.whenTerminated(blaster);
            TestSupport.awaitCondition(() -> node.outboundInFlight(eId) >= OUTBOUND_LIMIT,
                    () -> "the bound was never reached: in flight " + node.outboundInFlight(eId));
            assertTrue(!done.isDone(), "the sender must be parked at the bound");
            // A behaviour actor must not park: at the bound (the parked sender holds the FIFO
            // queue of places) its sends are dropped and counted. The socket may take a little
            // more meanwhile, so some may go: the counter gets exactly those not dropped.
            long droppedBefore = node.droppedCount();
            int k = 1000;
            Collector ack = new Collector();
            system.<Object>spawn((ctx, m) -> {
                for (int i = 0; i < k; i++) {
                    counter.tell(new Msgs.Count("behaviour-" + sender, i));
                }
                ack.ref.tell("sent");
                return Behavior.stopped();
            }).tell("go");
            ack.next(String.class, x -> true);
            behaviourDropped = node.droppedCount() - droppedBefore;
            assertTrue(behaviourDropped >= 1 && behaviourDropped <= k, "a behaviour actor's sends over the bound are dropped and counted: " + behaviourDropped);
            assertEquals("healthy", echoA.<String>ask(to -> new Msgs.Echo("healthy", to), ASK).get());
            assertTrue(!done.isDone(), "still parked while E is paused");
        } finally {
            e.signal("CONT");
        }
        assertNull(done.get().reason());
        Msgs.Counted got = counter.<Msgs.Counted>ask(r -> new Msgs.CountReport(sender, r), ASK).get();
        assertEquals(new Msgs.Counted(n, 0, n - 1), got);
        Msgs.Counted fromBehaviour = counter.<Msgs.Counted>ask(r -> new Msgs.CountReport("behaviour-" + sender, r), ASK).get();
        assertEquals(1000 - behaviourDropped, fromBehaviour.inOrder() + fromBehaviour.outOfOrder(), "the behaviour actor's sends that were not dropped arrive");
        e.kill();
    }

    /** A round trip with peer {@code tag}: everything sent to it before has been handled there. */
    private static void barrier(String tag) {
        assertEquals("barrier", remote(tag + ".echo").<String>ask(to -> new Msgs.Echo("barrier", to), ASK).get());
    }
}
