package io.gmp4j.examples.chat;

import io.gmp4j.GoRuntime;
import io.gmp4j.examples.AcceptBackoff;
import io.gmp4j.examples.chat.ChatConfig.SlowPolicy;
import io.gmp4j.chan.Chan;
import io.gmp4j.chan.Select;
import io.gmp4j.net.Listener;
import io.gmp4j.net.Net;
import io.gmp4j.sync.WaitGroup;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * A line-based chat server on goroutines: nicknames, rooms, private messages.
 *
 * <h2>Goroutines</h2>
 * <ul>
 * <li>an <b>acceptor</b> ({@link Listener#accept} in a loop) that starts two goroutines per
 *     connection; an accept that fails while the listener is open (out of descriptors) is
 *     logged to stderr and tried again after a back-off ({@link AcceptBackoff}: 5 ms doubling
 *     up to 1 s, cut short by {@link #close});</li>
 * <li>a <b>reader</b> per connection: reads lines ({@link LineIn}, with the read deadline as
 *     the idle timeout) and posts each to the hub; it never writes;</li>
 * <li>a <b>writer</b> per connection, fed by a bounded channel ({@link ChatConfig#queue} lines):
 *     it takes whatever is queued (up to 64 KiB), writes it as one batch and waits again only
 *     when the channel is empty, so a busy room costs one socket write per batch, not one per
 *     line;</li>
 * <li>one <b>hub</b> that owns every piece of state (nicknames, rooms, members), selecting
 *     over the event channel and the quit channel.</li>
 * </ul>
 *
 * <h2>Why a hub and not rooms as actors</h2>
 * Half the commands cross rooms: nicknames are unique server-wide ({@code /nick}, the login),
 * {@code /msg} reaches a nick in any room, {@code /join} moves a member from one room to
 * another, {@code /rooms} lists them all. With one goroutine owning all of it each command is
 * a plain map operation, atomic by construction, with no registry shared between room actors
 * and no two-room handshake for {@code /join}. What it costs: one goroutine does every
 * fan-out, so a single busy room cannot use more than one core for routing; the hub only
 * hands lines to per-client channels ({@link Chan#trySend}, never blocking), and the writers,
 * which do the socket work and the UTF-8 encoding, run on every P.
 *
 * <h2>Slow clients</h2>
 * The hub never waits for a client: {@link Chan#trySend} either queues a line or finds the
 * client's outbound channel full, and then {@link ChatConfig#slowPolicy} decides:
 * <ul>
 * <li>{@link SlowPolicy#DISCONNECT} (the default): the client is disconnected on the spot (its
 *     connection closed, which also wakes its writer parked on the full socket) and the room is
 *     told {@code *** nick was disconnected: too slow}. The slow client itself cannot be told
 *     in-band (its pipe is what is full); what it had been sent before is still delivered for a
 *     few seconds.</li>
 * <li>{@link SlowPolicy#DROP}: the client stays; every line for it is dropped while its channel
 *     is full, and counted (per client: {@link #droppedFor}; in total: {@link #dropped()} and
 *     the {@link #summary()}). As soon as its writer takes lines off the channel it tells the
 *     hub, which queues one notice {@code *** N lines dropped: you are reading too slowly}
 *     before any new line, so the client sees exactly where its gap is. The room is not told.</li>
 * </ul>
 * Either way the rest of the room never slows down.
 *
 * <h2>Limits</h2>
 * Line length (longer lines are refused with a notice and the connection stays), clients
 * (one more gets "server full" and is closed), idle time (read deadline), outbound queue.
 * Invalid UTF-8 becomes U+FFFD.
 *
 * <h2>Clustered</h2>
 * Started with a {@link ClusterBridge} ({@code ./gmp4j run chat --cluster}), the server is one
 * node of a chat cluster: the hub still owns only its own clients, and the bridge, called on
 * the hub goroutine, adds the other nodes' users to {@code /who}, {@code /rooms} and
 * {@code /msg}, claims nicknames cluster-wide, and tells the other nodes of its users' joins,
 * leaves and lines.
 *
 * <h2>Shutdown</h2>
 * {@link #close()}: the listener stops, every client gets {@code *** server shutting down,
 * goodbye} and a FIN once its queue is written; connections the clients have not closed after
 * {@link ChatConfig#grace} are closed by the server.
 */
public final class ChatServer implements AutoCloseable {
    static final String DEFAULT_ROOM = "lobby";
    static final String GOODBYE = "*** server shutting down, goodbye";
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.-]{1,20}");

    // ---- set once
    private final GoRuntime rt;
    private final ChatConfig cfg;
    private final Listener listener;
    /** The other nodes' rooms and users; null for a server on its own. */
    private final ClusterBridge cluster;
    private final Chan<Event> events = new Chan<>(4096);
    private final Chan<Void> quit = new Chan<>();
    /** Readers and writers. */
    final WaitGroup conns = new WaitGroup();
    /** Completed when the hub returns. */
    private final CompletableFuture<Void> stopped = new CompletableFuture<>();
    private final Object closeLock = new Object();
    /** Socket writes by the writers (each a batch of one or more lines). */
    final java.util.concurrent.atomic.LongAdder writes = new java.util.concurrent.atomic.LongAdder();
    private boolean closing;

    // ---- owned by the hub goroutine
    private final Set<Client> clients = new LinkedHashSet<>();
    private final Map<String, Client> byNick = new HashMap<>(); // lower-case nick
    private final Map<String, Set<Client>> rooms = new TreeMap<>();
    private final ArrayDeque<Client> toKick = new ArrayDeque<>();
    private long delivered;
    private long kicked;
    private long dropped;
    private long served;
    // (the counters are read by summary() after stopped: completing it orders them)

    private ChatServer(GoRuntime rt, ChatConfig cfg, Listener listener, ClusterBridge cluster) {
        this.rt = rt;
        this.cfg = cfg;
        this.listener = listener;
        this.cluster = cluster;
    }

    /**
     * Listens on {@code address} ({@code "127.0.0.1:0"} for a free port) with goroutines of
     * {@code rt}, and serves until {@link #close()}.
     */
    public static ChatServer start(GoRuntime rt, String address, ChatConfig cfg) throws IOException {
        return start(rt, address, cfg, null);
    }

    /**
     * {@link #start(GoRuntime, String, ChatConfig)} as one node of a chat cluster: {@code cluster}
     * (null: on its own) joins this server's rooms to the other nodes'.
     */
    static ChatServer start(GoRuntime rt, String address, ChatConfig cfg, ClusterBridge cluster) throws IOException {
        CompletableFuture<Listener> l = new CompletableFuture<>();
        rt.go(() -> { // the listener belongs to the runtime of the goroutine that opens it
            try {
                l.complete(Net.listen(address));
            } catch (Throwable t) {
                l.completeExceptionally(t);
            }
        });
        Listener listener;
        try {
            listener = l.get(30, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof IOException io) {
                throw io;
            }
            throw new IOException("listen " + address, e.getCause());
        } catch (Exception e) {
            throw new IOException("listen " + address, e);
        }
        ChatServer s = new ChatServer(rt, cfg, listener, cluster);
        if (cluster != null) {
            try {
                cluster.attach(s, rt);
            } catch (RuntimeException e) {
                listener.close();
                throw new IOException("join the chat cluster: " + e.getMessage(), e);
            }
        }
        rt.go(s::hub);
        rt.go(new Acceptor(s, rt, listener, cfg, s.quit)::acceptLoop);
        return s;
    }

    /** The address it listens on. */
    public InetSocketAddress address() {
        return listener.address();
    }

    /**
     * Stops accepting, says goodbye to every client and waits (at most the grace period plus a
     * few seconds) until every connection is closed. Idempotent; callable from any thread,
     * including a shutdown hook.
     */
    @Override
    public void close() {
        synchronized (closeLock) {
            if (!closing) {
                closing = true;
                listener.close();
                quit.close();
            }
        }
        awaitStopped(cfg.grace().plusSeconds(10));
    }

    /** Waits until the server has stopped; false if it has not after {@code d}. */
    public boolean awaitStopped(Duration d) {
        try {
            stopped.get(d.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (java.util.concurrent.TimeoutException e) {
            return false;
        } catch (java.util.concurrent.ExecutionException e) {
            throw new IllegalStateException("the hub failed", e.getCause()); // it never completes exceptionally
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Counters, readable once stopped: clients served, lines delivered, clients disconnected as
     * too slow and lines dropped for slow clients.
     */
    public String summary() {
        return served + " clients served, " + delivered + " lines delivered in " + writes.sum() + " writes, "
                + kicked + " disconnected as too slow, " + dropped + " lines dropped for slow readers";
    }

    /** Lines dropped for clients whose queue was full, all clients together (read it once stopped). */
    public long dropped() {
        return dropped;
    }

    /**
     * Lines dropped so far for the client now called {@code nick} (under {@link SlowPolicy#DROP};
     * always 0 under {@code DISCONNECT}), counted since it connected, reported to it or not. Asks
     * the hub, so it is exact at the moment the hub answers; callable from any thread while the
     * server runs.
     *
     * @throws IllegalArgumentException no client has that nickname
     * @throws IllegalStateException    the server is stopping
     */
    public long droppedFor(String nick) {
        CompletableFuture<Long> answer = new CompletableFuture<>();
        if (!post(new Select(), new DropsQuery(nick, answer))) {
            throw new IllegalStateException("the chat server is stopping");
        }
        try {
            // the hub answers while it runs; a query it received too late is answered by its stopping
            CompletableFuture.anyOf(answer, stopped).get(30, TimeUnit.SECONDS);
            if (!answer.isDone()) {
                throw new IllegalStateException("the chat server stopped");
            }
            return answer.get();
        } catch (java.util.concurrent.ExecutionException e) {
            if (e.getCause() instanceof IllegalArgumentException bad) {
                throw new IllegalArgumentException(bad.getMessage(), bad);
            }
            throw new IllegalStateException("droppedFor " + nick, e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted asking the hub", e);
        } catch (java.util.concurrent.TimeoutException e) {
            throw new IllegalStateException("the hub did not answer within 30 s", e);
        }
    }

    /** Lines queued to clients (hub-owned: read it once stopped). */
    public long delivered() {
        return delivered;
    }

    /** Socket writes so far (a write carries every line that was queued): exact once stopped. */
    public long writes() {
        return writes.sum();
    }

    // =====================================================================================
    // Connections
    // =====================================================================================

    sealed interface Event {
    }

    record Joined(Client c) implements Event {
    }

    record Line(Client c, String text) implements Event {
    }

    record TooLong(Client c) implements Event {
    }

    /** The reader ended: end of stream, an error, or the idle timeout ({@code idle}). */
    record Left(Client c, boolean idle) implements Event {
    }

    /** The writer of a client with dropped lines took lines off its channel: there is room. */
    record RoomAgain(Client c) implements Event {
    }

    /** From the cluster: a message of another node, or one of {@link ClusterBridge}'s goroutines. */
    private record FromCluster(Object msg) implements Event {
    }

    /** {@link #droppedFor}: the hub answers with the client's drop count. */
    private record DropsQuery(String nick, CompletableFuture<Long> answer) implements Event {
    }

    /** Posts {@code msg} of {@link ClusterBridge} to the hub (waiting for room); false when stopping. */
    boolean postCluster(Select s, Object msg) {
        return post(s, new FromCluster(msg));
    }

    /** Posts {@code e} to the hub; false when the server is stopping. */
    boolean post(Select s, Event e) {
        s.reset();
        s.send(events, e);
        int q = s.recv(quit);
        return s.select() != q;
    }

    // =====================================================================================
    // The hub
    // =====================================================================================

    private void hub() {
        Select s = new Select();
        try {
            while (true) {
                s.reset();
                int ev = s.recv(events);
                int q = s.recv(quit);
                int chosen = s.select();
                if (chosen == q) {
                    break;
                }
                if (chosen == ev) {
                    handle(s.value());
                    kickSlow();
                }
            }
            shutdown(s);
        } finally {
            stopped.complete(null);
        }
    }

    private void handle(Event e) {
        switch (e) {
            case Joined(Client c) -> {
                served++;
                if (clients.size() >= cfg.maxClients()) {
                    send(c, "*** server full (" + cfg.maxClients() + " clients), try again later");
                    c.gone = true;
                    c.out.close();
                    return;
                }
                clients.add(c);
                send(c, "*** welcome to gmp4j chat; commands: /nick /join /rooms /who /msg /quit");
                send(c, "*** choose a nickname:");
            }
            case TooLong(Client c) -> send(c, "*** line too long (max " + cfg.maxLine() + " bytes), ignored");
            case Left(Client c, boolean idle) -> {
                if (idle) {
                    send(c, "*** idle for " + ChatConfig.human(cfg.idle()) + ", disconnecting");
                }
                remove(c, idle ? "idle" : "quit");
            }
            case RoomAgain(Client c) -> {
                if (!c.gone && c.unreported > 0) {
                    reportDrops(c);
                }
            }
            case DropsQuery q -> answer(q);
            case FromCluster(ClusterBridge.Claimed k) -> claimed(k);
            case FromCluster(Object m) -> cluster.handle(m);
            case Line(Client c, String text) -> line(c, text);
        }
    }

    private void line(Client c, String text) {
        if (c.gone) {
            return; // read before it was disconnected
        } else if (c.claiming != null) {
            if (c.held.size() < ClusterBridge.MAX_HELD) {
                c.held.add(text); // handled once the cluster answers the claim
            } else {
                send(c, "*** still checking nickname " + c.claiming + ", line ignored");
            }
        } else if (c.nick == null) {
            login(c, text.strip());
        } else if (text.startsWith("/")) {
            command(c, text);
        } else if (!text.isBlank()) {
            String l = "[" + c.room + "] " + c.nick + ": " + text;
            broadcast(c.room, l);
            if (cluster != null) {
                cluster.said(c.room, l);
            }
        }
    }

    /** A cluster-wide claim of a nickname answered: log in or rename, or say it is taken. */
    private void claimed(ClusterBridge.Claimed k) {
        Client c = k.client();
        c.claiming = null;
        if (c.gone) {
            ClusterBridge.release(k.token());
            return;
        }
        if (k.token() == null || byNick.containsKey(key(k.nick()))) {
            ClusterBridge.release(k.token());
            send(c, "*** nickname " + k.nick() + " is taken" + (c.nick == null ? ", choose another:" : ""));
        } else if (c.nick == null) {
            c.nickToken = k.token();
            welcome(c, k.nick());
        } else {
            ClusterBridge.release(c.nickToken);
            c.nickToken = k.token();
            rename(c, k.nick());
        }
        for (String l; c.claiming == null && !c.gone && (l = c.held.poll()) != null; ) {
            line(c, l);
        }
    }

    private void answer(DropsQuery q) {
        Client c = byNick.get(key(q.nick()));
        if (c == null) {
            q.answer().completeExceptionally(new IllegalArgumentException("no client called " + q.nick()));
        } else {
            q.answer().complete(c.dropped);
        }
    }

    private void login(Client c, String nick) {
        if (c.gone) {
            return;
        }
        if (!NAME.matcher(nick).matches()) {
            send(c, "*** a nickname is 1 to 20 letters, digits, '_', '-' or '.'; choose a nickname:");
        } else if (byNick.containsKey(key(nick)) || cluster != null && cluster.hasNick(key(nick))) {
            send(c, "*** nickname " + nick + " is taken, choose another:");
        } else if (cluster != null) {
            c.claiming = nick;
            cluster.claim(c, nick);
        } else {
            welcome(c, nick);
        }
    }

    private void welcome(Client c, String nick) {
        c.nick = nick;
        byNick.put(key(nick), c);
        send(c, "*** hello " + nick + "; you are in " + DEFAULT_ROOM + " (/join <room> to move, /rooms to list)");
        enter(c, DEFAULT_ROOM);
    }

    private void rename(Client c, String nick) {
        String old = c.nick;
        byNick.remove(key(old));
        c.nick = nick;
        byNick.put(key(nick), c);
        String l = "*** " + old + " is now known as " + nick;
        broadcast(c.room, l);
        if (cluster != null) {
            cluster.renamed(old, nick, c.room, l);
        }
    }

    private void command(Client c, String text) {
        if (c.gone) {
            return;
        }
        String[] w = text.strip().split("\\s+", 3);
        String arg = w.length > 1 ? w[1] : "";
        switch (w[0]) {
            case "/nick" -> {
                if (!NAME.matcher(arg).matches()) {
                    send(c, "*** usage: /nick <new> (1 to 20 letters, digits, '_', '-' or '.')");
                } else if (byNick.containsKey(key(arg)) && byNick.get(key(arg)) != c
                        || cluster != null && cluster.hasNick(key(arg))) {
                    send(c, "*** nickname " + arg + " is taken");
                } else if (cluster != null && !key(arg).equals(key(c.nick))) {
                    c.claiming = arg;
                    cluster.claim(c, arg);
                } else {
                    rename(c, arg);
                }
            }
            case "/join" -> {
                if (!NAME.matcher(arg).matches()) {
                    send(c, "*** usage: /join <room> (1 to 20 letters, digits, '_', '-' or '.')");
                } else if (arg.equals(c.room)) {
                    send(c, "*** you are already in " + arg);
                } else {
                    leave(c, "left " + c.room);
                    enter(c, arg);
                }
            }
            case "/rooms" -> {
                Map<String, Integer> sizes = new TreeMap<>();
                rooms.forEach((name, members) -> sizes.put(name, members.size()));
                if (cluster != null) {
                    cluster.countRooms(sizes);
                }
                StringBuilder b = new StringBuilder("*** rooms:");
                sizes.forEach((name, n) -> b.append(' ').append(name).append(" (").append(n).append(')'));
                send(c, b.toString());
            }
            case "/who" -> {
                StringBuilder b = new StringBuilder("*** in ").append(c.room).append(':');
                for (Client m : rooms.get(c.room)) {
                    b.append(' ').append(m.nick);
                }
                if (cluster != null) {
                    cluster.who(c.room, b);
                }
                send(c, b.toString());
            }
            case "/msg" -> {
                Client to = byNick.get(key(arg));
                String far;
                if (w.length < 3 || w[2].isBlank()) {
                    send(c, "*** usage: /msg <nick> <text>");
                } else if (to == null && cluster != null
                        && (far = cluster.privateMessage(key(arg), "[pm] " + c.nick + ": " + w[2])) != null) {
                    send(c, "[pm -> " + far + "] " + w[2]);
                } else if (to == null) {
                    send(c, "*** no such nick: " + arg);
                } else {
                    send(to, "[pm] " + c.nick + ": " + w[2]);
                    if (to != c) {
                        send(c, "[pm -> " + to.nick + "] " + w[2]);
                    }
                }
            }
            case "/quit" -> {
                send(c, "*** bye " + c.nick);
                remove(c, "quit");
            }
            case "/help" -> send(c, "*** commands: /nick <new>, /join <room>, /rooms, /who, /msg <nick> <text>, /quit");
            default -> send(c, "*** unknown command " + w[0] + "; /help lists them");
        }
    }

    private static String key(String nick) {
        return nick.toLowerCase(Locale.ROOT);
    }

    private void enter(Client c, String room) {
        c.room = room;
        rooms.computeIfAbsent(room, r -> new LinkedHashSet<>()).add(c);
        String l = "*** " + c.nick + " joined " + room;
        broadcast(room, l);
        if (cluster != null) {
            cluster.moved(c.nick, room, room, l);
        }
    }

    /** Takes {@code c} out of its room and tells the room why. */
    private void leave(Client c, String why) {
        if (c.room == null) {
            return;
        }
        String room = c.room;
        Set<Client> members = rooms.get(room);
        members.remove(c);
        c.room = null;
        if (members.isEmpty() && !room.equals(DEFAULT_ROOM)) {
            rooms.remove(room);
        }
        String l = "*** " + c.nick + " " + why;
        broadcast(room, l);
        if (cluster != null) {
            cluster.moved(c.nick, null, room, l);
        }
    }

    /** Forgets {@code c}; its writer writes what is queued and closes the connection. */
    private void remove(Client c, String why) {
        if (c.gone) {
            return;
        }
        c.gone = true;
        clients.remove(c);
        if (c.nick != null) {
            byNick.remove(key(c.nick));
            leave(c, why.equals("quit") ? "left" : "was disconnected: " + why);
        }
        ClusterBridge.release(c.nickToken);
        c.out.close();
    }

    /**
     * Queues {@code line} for {@code c}, after the drop notice it is owed if any. A full queue
     * marks the client too slow ({@link #kickSlow}) or drops the line, as the policy says.
     */
    private void send(Client c, String line) {
        send(c, Client.wire(line));
    }

    /** {@link #send(Client, String)} of a line already encoded by {@link Client#wire}. */
    private void send(Client c, byte[] line) {
        if (c.gone) {
            return;
        }
        if (c.unreported > 0 && !reportDrops(c)) {
            drop(c); // still full: no line may overtake the notice
        } else if (c.out.trySend(line)) {
            delivered++;
        } else if (cfg.slowPolicy() == SlowPolicy.DROP) {
            drop(c);
        } else if (!toKick.contains(c)) {
            toKick.add(c);
        }
    }

    private void drop(Client c) {
        c.dropped++;
        c.unreported++;
        dropped++;
        c.wantsRoom.set(true); // after the failed trySend: the writer's next take will see it
    }

    /** Queues the notice of the lines dropped since the last one; false if {@code c}'s queue is still full. */
    private boolean reportDrops(Client c) {
        if (!c.out.trySend(Client.wire("*** " + c.unreported + " lines dropped: you are reading too slowly"))) {
            c.wantsRoom.set(true);
            return false;
        }
        delivered++;
        c.unreported = 0;
        return true;
    }

    /** The logged-in clients' nicknames and rooms, in login order (for {@link ClusterBridge}). */
    java.util.List<ClusterMessages.Member> members() {
        java.util.List<ClusterMessages.Member> all = new java.util.ArrayList<>();
        for (Client c : clients) {
            if (c.nick != null && c.room != null) {
                all.add(new ClusterMessages.Member(c.nick, c.room));
            }
        }
        return all;
    }

    /** Queues {@code line} for the client called {@code nick} (lower case), if it is here; false if not. */
    boolean tell(String nick, String line) {
        Client c = byNick.get(nick);
        if (c == null) {
            return false;
        }
        send(c, line);
        return true;
    }

    /** Queues {@code line} for every client in {@code room}. */
    void broadcast(String room, String line) {
        Set<Client> members = rooms.get(room);
        if (members == null) {
            return;
        }
        byte[] w = Client.wire(line);
        for (Client m : members) {
            send(m, w);
        }
    }

    /** Disconnects the clients whose queue was full (telling their rooms may find more). */
    private void kickSlow() {
        Client c;
        while ((c = toKick.poll()) != null) {
            if (c.gone) {
                continue;
            }
            kicked++;
            c.conn.close(); // wakes its writer, parked on the full socket
            remove(c, "too slow");
        }
    }

    private void shutdown(Select s) {
        if (cluster != null) {
            cluster.stop();
        }
        for (Client c : clients) {
            send(c, GOODBYE);
            c.gone = true;
            c.halfClose = true;
            c.out.close();
        }
        Chan<Void> allDone = new Chan<>();
        rt.go(() -> {
            conns.await();
            allDone.close();
        });
        // Until every reader and writer is done: drop what is still posted (a connection
        // accepted as quit was closed is closed here), and after the grace period close the
        // connections whose clients did not close after the goodbye.
        long deadline = System.nanoTime() + cfg.grace().toNanos();
        boolean forced = false;
        while (true) {
            s.reset();
            int done = s.recv(allDone);
            int ev = s.recv(events);
            int late = forced ? -2 : s.timeout(Duration.ofNanos(Math.max(0, deadline - System.nanoTime())));
            int chosen = s.select();
            if (chosen == done) {
                return;
            }
            if (chosen == ev && s.value() instanceof Joined(Client c)) {
                c.gone = true;
                c.out.close();
                c.conn.close();
            } else if (chosen == ev && s.value() instanceof DropsQuery q) {
                answer(q);
            } else if (chosen == ev && s.value() instanceof FromCluster(ClusterBridge.Claimed k)) {
                ClusterBridge.release(k.token());
            } else if (chosen == late) {
                forced = true;
                for (Client c : clients) {
                    c.conn.close();
                }
            }
        }
    }
}
