package io.gmp4j.cluster;

import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.cluster.MembershipListener;
import com.hazelcast.core.HazelcastInstance;
import io.gmp4j.actor.ActorRef;
import io.gmp4j.actor.ActorSystem;
import io.gmp4j.actor.Behavior;
import io.gmp4j.actor.RemoteActorRef;
import io.gmp4j.actor.Reply;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.eventbus.EventBusOptions;
import io.vertx.core.eventbus.Message;
import io.vertx.core.eventbus.MessageConsumer;
import io.vertx.spi.cluster.hazelcast.HazelcastClusterManager;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * This JVM's membership of a gmp4j cluster: the actors of one {@link ActorSystem} become
 * reachable from other JVMs, and theirs from here, as plain {@link ActorRef}s. Membership,
 * failure detection and transport are Vert.x's clustered event bus on Hazelcast; gmp4j adds
 * cluster-wide names ({@link #register}, {@link #lookup}) and its own wire format
 * ({@link #codecs()}).
 *
 * <p>Delivery is at most once, in order per sender and receiver while both nodes are up. A
 * message from the network is decoded on a Vert.x event loop and handed to the actor's mailbox
 * with {@link ActorSystem#tryTell}: no actor code runs on a Vert.x thread and the event loop
 * never waits, so a full bounded mailbox (whatever its {@code Overflow}) makes a remote message a
 * dead letter, counted by {@link #droppedCount()}.
 *
 * <p>{@link #join}, {@link #register}, {@link #lookup} and {@link #close} wait for the cluster:
 * call them from a goroutine or thread, not from a behaviour actor.
 *
 * <pre>{@code
 * try (ClusterNode node = ClusterNode.join(system, ClusterConfig.builder().allow(Ping.class).build())) {
 *     node.register("pinger", system.spawn(pinger));
 *     ActorRef<Ping> ponger = node.<Ping>lookup("ponger").orElseThrow();
 *     ponger.tell(new Ping(1));
 * }
 * }</pre>
 */
public final class ClusterNode implements AutoCloseable {
    private static final Logger LOG = Logger.getLogger("io.gmp4j.cluster");
    static final String ADDRESS_PREFIX = "gmp4j.node.";
    static final byte FRAME_VERSION = 1;
    /** The first byte of a batch of frames (see {@link Outbound}); a frame's first byte is {@link #FRAME_VERSION}. */
    static final byte BATCH_VERSION = 2;
    static final byte TELL = 1;
    static final byte STOP = 2;
    /** Control frames of watches and links: see {@link Monitors}. */
    static final byte WATCH = 3, UNWATCH = 4, DOWN = 5, LINK = 6, UNLINK = 7, EXIT = 8;
    /** The member attribute under which Vert.x's Hazelcast cluster manager keeps its node id. */
    private static final String VERTX_NODE_ID = "__vertx.nodeId";
    /** version, kind, key */
    static final int FRAME_HEADER = 10;
    /** The largest frame sent or accepted. */
    static final int MAX_FRAME = 64 << 20;
    private static final Object ASK_SENT = new Object();

    private final ActorSystem system;
    private final ClusterConfig config;
    private final Vertx vertx;
    private final HazelcastClusterManager manager;
    private final String nodeId;
    private final EventBus bus;
    /**
     * The one Vert.x context every send of this node runs on. Invariant (per-pair order): a
     * sender's frames to one node enter that node's FIFO queue ({@link Outbound}) in program
     * order; one drain at a time, on this context, takes them in that order into batches and
     * hands the batches to the event bus in that order; the clustered event bus keeps the order
     * of sends from one context to one address (it queues them while it looks up the address's
     * node) and writes them to one connection per node; the receiver's consumer runs on one
     * context in arrival order, unpacks each batch in order and enqueues into a FIFO mailbox.
     */
    private final Context sendContext;
    private final MessageConsumer<Object> consumer;
    private final WireCodec codecs = new WireCodec();
    private final ExportTable exports = new ExportTable();
    private final Monitors monitors = new Monitors(this);
    /** The bounded path to each node this one sends to; removed when the node is lost. */
    private final Map<String, Outbound> outbound = new ConcurrentHashMap<>();
    /** The reply address of each pending ask of a remote actor, with the node asked. */
    private final Map<ActorRef<?>, String> pendingAsks = new ConcurrentHashMap<>();
    private final NameRegistry names;
    private final ActorRef<Object> askProxy;
    private final WireCodec.Refs refs;
    private final long sweepTimer;
    private final LongAdder refused = new LongAdder();
    private final LongAdder dropped = new LongAdder();
    private final LongAdder delivered = new LongAdder();
    private volatile boolean closed;

    private ClusterNode(ActorSystem system, ClusterConfig config, Vertx vertx, HazelcastClusterManager manager) {
        this.system = system;
        this.config = config;
        this.vertx = vertx;
        this.manager = manager;
        this.nodeId = manager.getNodeId();
        this.bus = vertx.eventBus();
        this.sendContext = vertx.getOrCreateContext();
        codecs.register(config.allowed().toArray(Class<?>[]::new));
        refs = new WireCodec.Refs() {
            @Override
            public String nodeId() {
                return nodeId;
            }

            @Override
            public long export(ActorRef<?> ref) {
                return exports.export(ref);
            }

            @Override
            public ActorRef<?> resolve(String id, long key, String name) {
                if (id.equals(nodeId)) {
                    ActorRef<?> local = exports.get(key);
                    if (local != null) {
                        return local;
                    }
                }
                return new RemoteRef<>(ClusterNode.this, id, key, name); // gone here: its messages are counted dropped
            }
        };
        HazelcastInstance hz = manager.getHazelcastInstance();
        names = new NameRegistry(this, hz.getMap(NameRegistry.MAP_NAME));
        hz.getCluster().addMembershipListener(new MembershipListener() {
            @Override
            public void memberAdded(MembershipEvent e) {
            }

            @Override
            public void memberRemoved(MembershipEvent e) {
                // Hazelcast's member id is not Vert.x's node id; the member carries Vert.x's as an attribute.
                String id = e.getMember().getAttribute(VERTX_NODE_ID);
                if (id != null) {
                    nodeLost(id);
                }
                offload(() -> names.removeDeparted(manager.getNodes()));
            }
        });
        bus.registerDefaultCodec(WireFrame.class, new WireFrame.Codec());
        consumer = bus.consumer(ADDRESS_PREFIX + nodeId, this::onFrame);
        askProxy = system.spawn((ctx, m) -> Behavior.same(), "gmp4j.cluster.ask." + nodeId);
        sweepTimer = vertx.setPeriodic(10_000, id -> exports.sweep());
    }

    /**
     * Joins the cluster {@code config} names with {@code system}'s actors; waits until this node
     * is a member and can receive.
     *
     * <pre>{@code
     * ClusterNode node = ClusterNode.join(system, ClusterConfig.builder().build());
     * }</pre>
     *
     * @throws IllegalArgumentException for a setting that is wrong
     * @throws IllegalStateException    if the cluster cannot be joined within the join timeout
     */
    public static ClusterNode join(ActorSystem system, ClusterConfig config) {
        Objects.requireNonNull(system, "system");
        Objects.requireNonNull(config, "config");
        HazelcastSetup.quietLogging();
        HazelcastClusterManager manager = new HazelcastClusterManager(HazelcastSetup.hazelcastConfig(config));
        VertxOptions options = new VertxOptions().setEventBusOptions(new EventBusOptions()
                .setHost(config.host()).setPort(config.eventBusPort()).setClusterPublicHost(config.host()));
        Vertx vertx = await(Vertx.builder().with(options).withClusterManager(manager).buildClustered(),
                config.joinTimeout(), "join cluster '" + config.clusterName() + "' via " + config.members());
        ClusterNode node;
        try {
            node = new ClusterNode(system, config, vertx, manager);
            await(node.consumer.completion(), config.joinTimeout(), "register this node's address");
        } catch (RuntimeException e) {
            vertx.close();
            throw e;
        }
        return node;
    }

    private static <V> V await(Future<V> f, Duration timeout, String what) {
        try {
            return f.toCompletionStage().toCompletableFuture().get(timeout.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            throw new IllegalStateException("cluster: could not " + what + " within " + timeout);
        } catch (ExecutionException e) {
            throw new IllegalStateException("cluster: could not " + what + ": " + e.getCause(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("cluster: interrupted while waiting to " + what);
        }
    }

    /** This node's id in the cluster (Hazelcast's member id). */
    public String nodeId() {
        return nodeId;
    }

    /** The ids of the cluster's current members, this node's included. */
    public List<String> members() {
        return List.copyOf(manager.getNodes());
    }

    /** The types this node may send and receive: see and change them here. */
    public WireCodec codecs() {
        return codecs;
    }

    /** The actor system whose actors this node serves. */
    public ActorSystem system() {
        return system;
    }

    /** The configuration this node joined with. */
    public ClusterConfig config() {
        return config;
    }

    /**
     * Registers the local actor {@code ref} under {@code name} in the whole cluster. The name
     * goes when the actor stops, when this node closes, or when it leaves the cluster.
     *
     * <pre>{@code
     * node.register("room", system.spawn(room));
     * }</pre>
     *
     * @throws IllegalStateException    if another actor has the name anywhere in the cluster
     * @throws IllegalArgumentException if {@code ref} is not a local actor
     */
    public void register(String name, ActorRef<?> ref) {
        checkOpen();
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("register: blank name");
        }
        Objects.requireNonNull(ref, "register: null ref");
        if (ref instanceof RemoteRef<?>) {
            throw new IllegalArgumentException("register: " + ref + " is on another node; register it there");
        }
        names.register(name, ref, exports.export(ref));
    }

    /**
     * The actor registered under {@code name} anywhere in the cluster: the local ref if it is on
     * this node, a reference that sends over the event bus if it is on another.
     *
     * <pre>{@code
     * node.<String>lookup("room").ifPresent(room -> room.tell("hi"));
     * }</pre>
     */
    @SuppressWarnings("unchecked")
    public <T> Optional<ActorRef<T>> lookup(String name) {
        checkOpen();
        return names.lookup(name).flatMap(v -> Optional.ofNullable((ActorRef<T>) refOfEntry(name, v)));
    }

    /**
     * Tells {@code subscriber} of the cluster-wide names that start with {@code prefix}: first
     * a {@link NameEvent.Registered} for each one registered now, then each registration and
     * removal anywhere in the cluster, in the order they happened for each name. The events are
     * delivered as a remote message would be (never blocking the sender: a full bounded mailbox
     * drops them, counted by {@link #droppedCount()}). The subscription ends when the
     * subscriber stops or this node closes.
     *
     * <pre>{@code
     * node.subscribeNames("chat.node.", bridge);   // bridge: ActorRef<Object> handling NameEvent
     * }</pre>
     *
     * @throws IllegalArgumentException if {@code subscriber} is not a local actor
     */
    public void subscribeNames(String prefix, ActorRef<? super NameEvent> subscriber) {
        checkOpen();
        Objects.requireNonNull(prefix, "subscribeNames: null prefix");
        Objects.requireNonNull(subscriber, "subscribeNames: null subscriber");
        if (subscriber instanceof RemoteRef<?>) {
            throw new IllegalArgumentException("subscribeNames: " + subscriber + " is on another node; subscribe there");
        }
        names.subscribe(prefix, subscriber);
    }

    /** The ref of a name's entry {@code nodeId|key|actorName}; null if malformed, gone or its node left. */
    ActorRef<?> refOfEntry(String name, String[] v) {
        long key;
        try {
            key = Long.parseLong(v[1]);
        } catch (NumberFormatException | ArrayIndexOutOfBoundsException e) {
            LOG.warning("gmp4j cluster node " + nodeId + ": the entry of name '" + name + "' is malformed");
            return null;
        }
        if (v.length != 3) {
            return null;
        }
        if (v[0].equals(nodeId)) {
            return exports.get(key);
        }
        if (!isMember(v[0])) {
            return null; // its node has left; the survivors are removing the name
        }
        return new RemoteRef<>(this, v[0], key, v[2]);
    }

    /** Hands {@code msg} to the local {@code to} without waiting; false (counted dropped) if it could not. */
    boolean deliverLocal(ActorRef<?> to, Object msg) {
        @SuppressWarnings("unchecked")
        ActorRef<Object> t = (ActorRef<Object>) to;
        if (system.tryTell(t, msg)) {
            return true;
        }
        dropped.increment();
        return false;
    }

    /** Frames refused from the network: malformed, too big, or naming a type not registered here. */
    public long refusedCount() {
        return refused.sum();
    }

    /**
     * Messages from the network that reached no mailbox: no such actor here, a stopped one, or a
     * full bounded mailbox (the last two are also the actor system's dead letters).
     */
    public long droppedCount() {
        return dropped.sum();
    }

    /** Messages from the network put into a local mailbox. */
    public long deliveredCount() {
        return delivered.sum();
    }

    /**
     * Leaves the cluster: removes this node's names, stops receiving, closes Vert.x (which
     * leaves Hazelcast's cluster). Pending asks of remote actors fail. Idempotent.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            names.removeMine();
        } catch (RuntimeException e) {
            LOG.log(Level.WARNING, "gmp4j cluster node " + nodeId + ": could not remove its names on close", e);
        }
        names.unsubscribeAll();
        vertx.cancelTimer(sweepTimer);
        askProxy.stop();
        await(consumer.unregister(), config.joinTimeout(), "stop receiving");
        await(vertx.close(), config.joinTimeout(), "leave the cluster");
    }

    @Override
    public String toString() {
        return "ClusterNode[" + nodeId + " in " + config.clusterName() + "]";
    }

    // =====================================================================================
    // For RemoteRef and tests
    // =====================================================================================

    Vertx vertx() {
        return vertx;
    }

    /** The raw entry {@code nodeId|key|actorName} of a cluster-wide name (tests). */
    Optional<String[]> nameEntry(String name) {
        return names.lookup(name);
    }

    /** The context this node's sends run on (tests send crafted frames in the same order). */
    Context sendContext() {
        return sendContext;
    }

    /**
     * Whether node {@code id} is in the cluster. Vert.x's node list learns of a member from
     * Hazelcast's membership event, a moment after Hazelcast's own member list has it (with
     * Vert.x's node id as an attribute), and a new member's names can be read before that: a
     * node Vert.x does not list yet is looked for in Hazelcast's list.
     */
    boolean isMember(String id) {
        if (closed) {
            return false;
        }
        if (manager.getNodes().contains(id)) {
            return true;
        }
        for (com.hazelcast.cluster.Member m : manager.getHazelcastInstance().getCluster().getMembers()) {
            if (id.equals(m.getAttribute(VERTX_NODE_ID))) {
                return true;
            }
        }
        return false;
    }

    /** Runs {@code r} on a Vert.x worker: Hazelcast calls that must not hold an M or an event loop. */
    void offload(Runnable r) {
        if (closed) {
            return; // close removed this node's names; the cluster is no longer ours to tidy
        }
        vertx.executeBlocking(() -> {
            r.run();
            return null;
        }, false).onFailure(e -> LOG.log(Level.WARNING, "gmp4j cluster node " + nodeId + ": tidying the names failed", e));
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("cluster node " + nodeId + " is closed");
        }
    }

    /**
     * Encodes on the caller's thread (a refusal reaches the caller before anything is sent),
     * then sends through {@link #sendContext}. After close, a send is dropped and counted.
     */
    void send(String target, long key, byte kind, Object msg) {
        Buffer frame = Buffer.buffer(64).appendByte(FRAME_VERSION).appendByte(kind).appendLong(key);
        codecs.encode(msg, frame, refs);
        if (frame.length() > MAX_FRAME) {
            throw new IllegalArgumentException("cannot send a message of " + frame.length() + " bytes: more than " + MAX_FRAME);
        }
        if (closed) {
            dropped.increment();
            return;
        }
        Outbound out = outbound(target);
        if (kind == TELL && !out.acquire()) {
            dropped.increment(); // at the bound and not allowed to wait, or the node was lost meanwhile
            return;
        }
        // Per-pair order: see sendContext. A write: at most once, no reply expected.
        out.enqueue(frame);
    }

    /** Sends the control frame {@code kind} with {@code body}: it takes no place of the bound. */
    void sendControl(String target, long key, byte kind, List<Object> body) {
        send(target, key, kind, body);
    }

    private Outbound outbound(String target) {
        Outbound o = outbound.get(target);
        return o != null ? o : outbound.computeIfAbsent(target,
                t -> new Outbound(bus, ADDRESS_PREFIX + t, config.outboundLimit(), sendContext));
    }

    /**
     * Node {@code id} has left the cluster or died: its watches end, its links signal, the asks
     * of its actors fail, and senders parked on its bound wake (on Hazelcast's event thread;
     * nothing here waits).
     */
    private void nodeLost(String id) {
        Outbound o = outbound.remove(id);
        if (o != null) {
            o.lost();
        }
        monitors.nodeLeft(id);
        for (Map.Entry<ActorRef<?>, String> e : pendingAsks.entrySet()) {
            if (e.getValue().equals(id)) {
                RemoteActorRef.failReply(e.getKey(), new NodeDownException(id));
            }
        }
    }

    Monitors monitors() {
        return monitors;
    }

    /** Whether Hazelcast has no partition migrating or under-replicated (tests that pause a member). */
    boolean clusterSafe() {
        return manager.getHazelcastInstance().getPartitionService().isClusterSafe();
    }

    /** Messages to node {@code id} between their senders and the wire now (tests). */
    long outboundInFlight(String id) {
        Outbound o = outbound.get(id);
        return o == null ? 0 : o.inFlight();
    }

    /**
     * An ask of a remote actor, on a local proxy's ask: the proxy's reply address travels in the
     * message and answers the returned Reply; the message is sent from inside the factory, on
     * the caller's thread, so it keeps its place among the caller's tells.
     */
    <T, R> Reply<R> ask(RemoteRef<T> target, Function<ActorRef<R>, T> msgFactory, Duration timeout) {
        AtomicReference<ActorRef<R>> replyTo = new AtomicReference<>();
        Reply<R> r = askProxy.ask((ActorRef<R> to) -> {
            replyTo.set(to);
            pendingAsks.put(to, target.nodeId());
            if (!isMember(target.nodeId())) {
                RemoteActorRef.failReply(to, new NodeDownException(target.nodeId())); // lost before the ask
            }
            T msg = msgFactory.apply(to);
            try {
                send(target.nodeId(), target.key(), TELL, Objects.requireNonNull(msg, "ask: the factory built a null message"));
            } catch (RuntimeException e) {
                exports.remove(to);
                pendingAsks.remove(to);
                throw e;
            }
            return ASK_SENT;
        }, timeout);
        r.whenComplete((v, f) -> {
            ActorRef<R> to = replyTo.get();
            if (to != null) {
                exports.remove(to);
                pendingAsks.remove(to);
            }
        });
        return r;
    }

    /** On a Vert.x event loop: decode and hand to a mailbox, never more (no actor code, no waiting). */
    private void onFrame(Message<Object> m) {
        Object body = m.body();
        Buffer b = body instanceof WireFrame f ? f.bytes() : body instanceof Buffer raw ? raw : null;
        if (b == null) {
            refuse("not a gmp4j frame: " + (body instanceof WireFrame ? "a frame whose length does not fit"
                    : body == null ? "null" : body.getClass().getName()));
            return;
        }
        if (b.length() == 0 || b.getByte(0) != BATCH_VERSION) {
            onFrame(b, 0, b.length());
            return;
        }
        // A batch: [BATCH_VERSION] then [int length][frame] until the end (see Outbound).
        int pos = 1;
        while (pos < b.length()) {
            int n = b.length() - pos >= 4 ? b.getInt(pos) : -1;
            if (n < FRAME_HEADER || n > MAX_FRAME || n > b.length() - pos - 4) {
                refuse("a batch whose frame at byte " + pos + " does not fit: length " + n);
                return;
            }
            onFrame(b, pos + 4, pos + 4 + n);
            pos += 4 + n;
        }
    }

    private void refuse(String why) {
        refused.increment();
        LOG.warning("gmp4j cluster node " + nodeId + ": refused a frame: " + why);
    }

    /** One frame, bytes {@code from..to} of {@code b}: decode and hand to a mailbox, never more. */
    private void onFrame(Buffer b, int from, int to) {
        try {
            int len = to - from;
            if (len < FRAME_HEADER || len > MAX_FRAME) {
                throw new WireCodec.WireFormatException("frame of " + len + " bytes out of bounds " + FRAME_HEADER + ".." + MAX_FRAME);
            }
            if (b.getByte(from) != FRAME_VERSION) {
                throw new WireCodec.WireFormatException("unknown frame version " + b.getByte(from));
            }
            byte kind = b.getByte(from + 1);
            long key = b.getLong(from + 2);
            Object msg = codecs.decode(b, from + FRAME_HEADER, to, refs);
            ActorRef<Object> target = exports.get(key);
            switch (kind) {
                case TELL -> {
                    if (msg == null) {
                        throw new WireCodec.WireFormatException("a null message");
                    }
                    if (target != null && system.tryTell(target, msg)) {
                        delivered.increment();
                    } else {
                        dropped.increment();
                    }
                }
                case STOP -> {
                    if (target != null) {
                        target.stop();
                    }
                }
                case WATCH, UNWATCH, DOWN, LINK, UNLINK, EXIT -> monitors.onControl(kind, key, target, msg);
                default -> throw new WireCodec.WireFormatException("unknown frame kind " + kind);
            }
        } catch (WireCodec.WireFormatException e) {
            refuse(e.getMessage());
        }
    }
}
