package io.gmp4j.examples.chat;

import io.gmp4j.GoRuntime;
import io.gmp4j.actor.ActorRef;
import io.gmp4j.actor.Behavior;
import io.gmp4j.actor.Overflow;
import io.gmp4j.actor.ProcessContext;
import io.gmp4j.actor.Props;
import io.gmp4j.actor.Reply;
import io.gmp4j.actor.Terminated;
import io.gmp4j.chan.Chan;
import io.gmp4j.chan.Select;
import io.gmp4j.cluster.ClusterConfig;
import io.gmp4j.cluster.ClusterNode;
import io.gmp4j.cluster.NameEvent;
import io.gmp4j.examples.chat.ClusterMessages.Member;
import io.gmp4j.examples.chat.ClusterMessages.Moved;
import io.gmp4j.examples.chat.ClusterMessages.Private;
import io.gmp4j.examples.chat.ClusterMessages.Renamed;
import io.gmp4j.examples.chat.ClusterMessages.Said;
import io.gmp4j.examples.chat.ClusterMessages.Snapshot;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * Joins a {@link ChatServer}'s rooms to those of the other chat servers of a gmp4j cluster: one
 * set of rooms and nicknames, each user served by the node it is connected to.
 *
 * <h2>Who does what</h2>
 * <ul>
 * <li>Each node's hub stays the only owner of its own users; this bridge, called on the hub
 *     goroutine, adds a mirror of the other nodes' users ({@link Peer#users}) for {@code /who},
 *     {@code /rooms}, {@code /msg} and the taken-nickname check, and tells the other nodes of
 *     every change of its own users ({@link ClusterMessages}).</li>
 * <li>The <b>inbox</b>: a process actor registered cluster-wide as
 *     {@code chat.node.<nodeId>}, with a bounded mailbox ({@link #INBOX}); it posts every
 *     message it receives into the hub's event channel, waiting while that is full. A full
 *     inbox drops what the network brings (the cluster counts it in
 *     {@code node.droppedCount()}). It is also the subscriber of the names
 *     {@code chat.node.*} ({@code node.subscribeNames}): each other node's inbox registered
 *     reaches the hub as {@link Found}.</li>
 * <li>Per other node a <b>watch</b>: a goroutine waiting for the end of that node's inbox
 *     ({@code system.whenTerminated} of the remote ref), which the cluster reports with a
 *     {@code NodeDownException} when the node dies or leaves, within its failure detection.</li>
 * <li>Per other node a <b>sender</b> goroutine, fed by a bounded channel ({@link #PEER_QUEUE}
 *     messages) that the hub fills with {@link Chan#trySend}, never waiting: the sender does the
 *     remote {@code tell}s, so a goroutine is what the cluster's outbound bound parks when the
 *     node is slow, never the hub.</li>
 * </ul>
 *
 * <h2>Order and slow nodes</h2>
 * A node's messages to another all go through one sender, so they arrive in the hub's order
 * (per-pair FIFO): a {@link Snapshot} of its users first, then each change and line after it.
 * Lines of one user therefore reach every node in the order the user sent them. When a node's
 * channel is full the hub drops the message for it and counts it ({@link #summary()}); the next
 * message for that node is preceded by a fresh {@link Snapshot}, which puts its mirror of this
 * node's users right again. Lines dropped that way are lost for that node's users.
 *
 * <h2>Nicknames</h2>
 * A nickname is a cluster-wide name {@code chat.nick.<lower-case nick>}, registered (atomically,
 * cluster-wide) to a small actor per user, off the hub in a goroutine ({@link Claimed} answers);
 * stopping the actor frees it. A node that goes frees its users' names (the survivors remove a
 * departed node's names).
 *
 * <h2>Nodes going</h2>
 * When a node's inbox ends, every user of it leaves its room on every other node, shown as the
 * usual leave line with the reason: {@code *** bob left lobby (node down)} when the node died or
 * left the cluster, {@code (node stopped)} when its chat server stopped first.
 */
final class ClusterBridge {
    /** Each node's inbox is registered as this prefix and its node id. */
    static final String NODE_PREFIX = "chat.node.";
    /** Each nickname (lower case) is registered cluster-wide as this prefix and the nickname. */
    static final String NICK_PREFIX = "chat.nick.";
    /** Messages queued per other node before the hub drops them for it. */
    static final int PEER_QUEUE = 8192;
    /** The inbox's mailbox: messages from the network waiting for the hub. */
    static final int INBOX = 8192;
    /** Lines a client may send while its nickname is being claimed. */
    static final int MAX_HELD = 64;
    /** The reason shown after a leave line when the user's node died or left the cluster. */
    static final String NODE_DOWN = " (node down)";
    /** The reason shown after a leave line when the user's node stopped its chat server. */
    static final String NODE_STOPPED = " (node stopped)";

    /** The answer to a claim: {@code token} holds the name, or is null if it was taken. */
    record Claimed(Client client, String nick, ActorRef<?> token) {
    }

    /** {@code id}'s inbox is registered. */
    private record Found(String id, ActorRef<Object> inbox) {
    }

    /** {@code id}'s inbox ended; {@code reason} as its {@code Terminated} says. */
    private record Ended(String id, Throwable reason) {
    }

    /** Another node, as the hub sees it. */
    private static final class Peer {
        final String id;
        final ActorRef<Object> inbox;
        final Chan<Object> out = new Chan<>(PEER_QUEUE);
        /** Its users by lower-case nick. */
        final Map<String, Member> users = new LinkedHashMap<>();
        /** A message for it was dropped: send a snapshot before the next. */
        boolean resync;

        Peer(String id, ActorRef<Object> inbox) {
            this.id = id;
            this.inbox = inbox;
        }
    }

    private final ClusterNode node;
    private final String self;
    private final Chan<Void> done = new Chan<>();
    private Hub hub;
    private GoRuntime rt;
    private ActorRef<Object> inbox;

    // ---- owned by the hub goroutine
    private final Map<String, Peer> peers = new HashMap<>();
    /** Lower-case nick of another node's user -> its node. */
    private final Map<String, Peer> owners = new HashMap<>();
    /** Nodes seen going: what still arrives from them is ignored (a node back has a new id). */
    private final Set<String> gone = new HashSet<>();
    private long dropped;
    private long resyncs;
    private long nodesSeen;
    private long nodesGone;

    /** A bridge for a chat server on {@code node}; {@link ChatServer#start} attaches it. */
    ClusterBridge(ClusterNode node) {
        this.node = node;
        this.self = node.nodeId();
    }

    /**
     * The cluster settings of a chat node: {@link ClusterConfig}'s defaults and system
     * properties, and {@link ClusterMessages#TYPES} allowed on the wire.
     */
    static ClusterConfig config() {
        return ClusterConfig.builder().allow(ClusterMessages.TYPES).build();
    }

    /** Starts the inbox, registers it cluster-wide and subscribes it to the other inboxes; before the hub runs. */
    void attach(Hub hub, GoRuntime rt) {
        this.hub = hub;
        this.rt = rt;
        inbox = node.system().spawnProcess(this::inbox, Props.DEFAULT.withMailbox(INBOX, Overflow.DROP));
        try {
            node.register(NODE_PREFIX + self, inbox);
            node.subscribeNames(NODE_PREFIX, inbox);
        } catch (RuntimeException e) {
            inbox.stop();
            throw e;
        }
    }

    /** Frees a nickname's cluster-wide name (null: nothing to free). */
    static void release(ActorRef<?> token) {
        if (token != null) {
            token.stop();
        }
    }

    // =====================================================================================
    // Goroutines
    // =====================================================================================

    @SuppressWarnings("unchecked")
    private void inbox(ProcessContext<Object> p) {
        Select s = new Select();
        while (true) {
            Object m = p.receive();
            if (m instanceof NameEvent.Registered(String name, ActorRef<?> ref)) {
                String id = name.substring(NODE_PREFIX.length());
                m = id.equals(self) ? null : new Found(id, (ActorRef<Object>) ref);
            } else if (!(m instanceof Snapshot || m instanceof Moved || m instanceof Renamed
                    || m instanceof Said || m instanceof Private)) {
                m = null; // an Unregistered (the watch reports the end) or not a chat message
            }
            if (m != null && !hub.postCluster(s, m)) {
                return; // the server is stopping
            }
        }
    }

    /** Waits for the end of {@code p}'s inbox (or for the bridge to stop) and tells the hub. */
    private void watch(Peer p) {
        Reply<Terminated> end = node.system().whenTerminated(p.inbox);
        rt.go(() -> {
            Select s = new Select();
            int ended = s.recv(end.channel());
            s.recv(done);
            if (s.select() == ended) {
                Terminated t = s.value();
                hub.postCluster(s, new Ended(p.id, t.reason()));
            }
        });
    }

    /**
     * Claims {@code nick} cluster-wide for {@code c}, off the hub; the answer comes back to the
     * hub as {@link Claimed}.
     */
    void claim(Client c, String nick) {
        rt.go(() -> {
            ActorRef<Object> token = node.system().spawn((ctx, m) -> Behavior.same());
            ActorRef<?> held = null;
            try {
                node.register(NICK_PREFIX + key(nick), token);
                held = token;
            } catch (IllegalStateException taken) { // or the node is closed
                token.stop();
            } catch (RuntimeException e) {
                token.stop();
                System.err.println("chat: claiming nickname " + nick + " failed: " + e);
            }
            if (!hub.postCluster(new Select(), new Claimed(c, nick, held))) {
                release(held);
            }
        });
    }

    private void sender(Peer p) {
        for (Object m; (m = p.out.recv()) != null; ) {
            try {
                p.inbox.tell(m); // a goroutine: parks while the cluster's outbound to p is full
            } catch (RuntimeException e) {
                System.err.println("chat: sending to node " + p.id + " failed: " + e);
            }
        }
    }

    // =====================================================================================
    // On the hub goroutine
    // =====================================================================================

    /** Stops the watches, the senders and the inbox (at shutdown). */
    void stop() {
        done.close();
        for (Peer p : peers.values()) {
            p.out.close();
        }
        inbox.stop();
    }

    /** A message of another node, or a change the inbox or a watch reports. */
    void handle(Object m) {
        switch (m) {
            case Ended(String id, Throwable reason) -> {
                Peer p = peers.get(id);
                if (p != null) {
                    down(p, reason == null ? NODE_STOPPED : NODE_DOWN);
                }
            }
            case Found(String id, ActorRef<Object> ref) -> peer(id, ref);
            case Snapshot(String id, ActorRef<Object> ref, List<Member> users) -> {
                Peer p = peer(id, ref);
                if (p != null) {
                    for (String k : p.users.keySet()) {
                        owners.remove(k, p);
                    }
                    p.users.clear();
                    for (Member u : users) {
                        p.users.put(key(u.nick()), u);
                        owners.put(key(u.nick()), p);
                    }
                }
            }
            case Moved(String id, String nick, String room, String showIn, String line) -> {
                Peer p = peers.get(id);
                if (p != null) {
                    if (room == null) {
                        p.users.remove(key(nick));
                        owners.remove(key(nick), p);
                    } else {
                        p.users.put(key(nick), new Member(nick, room));
                        owners.put(key(nick), p);
                    }
                    hub.broadcast(showIn, line);
                }
            }
            case Renamed(String id, String old, String nick, String room, String line) -> {
                Peer p = peers.get(id);
                if (p != null) {
                    p.users.remove(key(old));
                    owners.remove(key(old), p);
                    p.users.put(key(nick), new Member(nick, room));
                    owners.put(key(nick), p);
                    hub.broadcast(room, line);
                }
            }
            case Said(String id, String room, String line) -> {
                if (peers.containsKey(id)) {
                    hub.broadcast(room, line);
                }
            }
            case Private(String id, String to, String line) -> {
                if (peers.containsKey(id)) {
                    hub.tell(to, line);
                }
            }
            default -> throw new IllegalArgumentException("not a chat cluster message: " + m);
        }
    }

    /** The peer {@code id}, added (its sender started, our snapshot queued) if new; null if it went. */
    private Peer peer(String id, ActorRef<Object> ref) {
        Peer p = peers.get(id);
        if (p != null || gone.contains(id) || id.equals(self)) {
            return p;
        }
        p = new Peer(id, ref);
        peers.put(id, p);
        nodesSeen++;
        Peer q = p;
        rt.go(() -> sender(q));
        watch(p);
        offer(p, snapshot());
        System.out.println("chat: node " + id + " joined (" + (peers.size() + 1) + " nodes)");
        return p;
    }

    /** {@code p} went: its users leave their rooms here, with {@code why}. */
    private void down(Peer p, String why) {
        peers.remove(p.id);
        gone.add(p.id);
        nodesGone++;
        p.out.close();
        for (Map.Entry<String, Member> e : p.users.entrySet()) {
            owners.remove(e.getKey(), p);
            Member u = e.getValue();
            hub.broadcast(u.room(), "*** " + u.nick() + " left " + u.room() + why);
        }
        System.out.println("chat: node " + p.id + " gone" + why + ", " + p.users.size() + " users left ("
                + (peers.size() + 1) + " nodes)");
    }

    private Snapshot snapshot() {
        return new Snapshot(self, inbox, hub.members());
    }

    private void publish(Object m) {
        for (Peer p : peers.values()) {
            offer(p, m);
        }
    }

    /** Queues {@code m} for {@code p} without waiting: dropped and counted if its channel is full. */
    private void offer(Peer p, Object m) {
        if (p.resync) {
            if (!p.out.trySend(snapshot())) {
                dropped++;
                return;
            }
            p.resync = false;
            resyncs++;
        }
        if (!p.out.trySend(m)) {
            dropped++;
            p.resync = true;
        }
    }

    /** Our user {@code nick} is now in {@code room} (null: none); other nodes show {@code line} in {@code showIn}. */
    void moved(String nick, String room, String showIn, String line) {
        publish(new Moved(self, nick, room, showIn, line));
    }

    /** Our user {@code old} is now {@code nick}, in {@code room}, told {@code line}. */
    void renamed(String old, String nick, String room, String line) {
        publish(new Renamed(self, old, nick, room, line));
    }

    /** Our user's {@code line} to {@code room}. */
    void said(String room, String line) {
        publish(new Said(self, room, line));
    }

    /** Whether another node has a user called {@code nick} (lower case) as far as this node knows. */
    boolean hasNick(String nick) {
        return owners.containsKey(nick);
    }

    /**
     * Sends {@code line} to the user {@code nick} (lower case) of another node; its nickname as
     * it spells it, or null if no other node has such a user.
     */
    String privateMessage(String nick, String line) {
        Peer p = owners.get(nick);
        if (p == null) {
            return null;
        }
        offer(p, new Private(self, nick, line));
        return p.users.get(nick).nick();
    }

    /** Appends the other nodes' users in {@code room} to a {@code /who} answer. */
    void who(String room, StringBuilder b) {
        for (Peer p : peers.values()) {
            for (Member u : p.users.values()) {
                if (u.room().equals(room)) {
                    b.append(' ').append(u.nick());
                }
            }
        }
    }

    /** Adds the other nodes' users to {@code sizes} (room -> members), for {@code /rooms}. */
    void countRooms(Map<String, Integer> sizes) {
        for (Peer p : peers.values()) {
            for (Member u : p.users.values()) {
                sizes.merge(u.room(), 1, Integer::sum);
            }
        }
    }

    /** Counters, readable once the server stopped. */
    String summary() {
        return "cluster node " + self + ": " + nodesSeen + " other nodes seen, " + nodesGone + " seen going, "
                + dropped + " messages dropped for slow nodes, " + resyncs + " snapshots resent";
    }

    private static String key(String nick) {
        return nick.toLowerCase(Locale.ROOT);
    }
}
