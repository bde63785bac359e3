package io.gmp4j.examples.chat;

import io.gmp4j.GoRuntime;
import io.gmp4j.chan.Chan;
import io.gmp4j.chan.Select;
import io.gmp4j.examples.chat.ChatConfig.SlowPolicy;
import io.gmp4j.sync.WaitGroup;
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
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Pattern;

/**
 * A {@link ChatServer}'s hub: the one goroutine ({@link #run}) that owns every client,
 * nickname and room, selecting over its event channel and the quit channel; the events the
 * acceptor, the readers, the writers and {@link ClusterBridge} post to it; the commands and
 * the fan-out of lines to the clients' channels under the slow-client policy; its counters;
 * and the goodbye at shutdown. The hub never waits for a client ({@link Chan#trySend}).
 * Everything but {@link #quit}, {@link #conns}, {@link #stopped} and {@link #writes} belongs to
 * the hub goroutine; {@link ClusterBridge} is called on it.
 */
final class Hub {
    static final String DEFAULT_ROOM = "lobby";
    static final String GOODBYE = "*** server shutting down, goodbye";
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.-]{1,20}");

    // ---- set once
    private final GoRuntime rt;
    private final ChatConfig cfg;
    /** The other nodes' rooms and users; null for a server on its own. */
    private final ClusterBridge cluster;
    private final Chan<Event> events = new Chan<>(4096);
    /** Closed by {@link ChatServer#close}: the hub stops and every {@link #post} fails. */
    final Chan<Void> quit = new Chan<>();
    /** Readers and writers. */
    final WaitGroup conns = new WaitGroup();
    /** Completed when the hub returns. */
    final CompletableFuture<Void> stopped = new CompletableFuture<>();
    /** Socket writes by the writers (each a batch of one or more lines). */
    final LongAdder writes = new LongAdder();

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

    /** A hub serving with {@code cfg}'s limits, {@code cluster} (null: on its own) joining it to other nodes. */
    Hub(GoRuntime rt, ChatConfig cfg, ClusterBridge cluster) {
        this.rt = rt;
        this.cfg = cfg;
        this.cluster = cluster;
    }

    // =====================================================================================
    // Events
    // =====================================================================================

    sealed interface Event {
    }

    record Joined(Client c) implements Event {
    }

    record Line(Client c, String text) implements Event {
    }

    record TooLong(Client c) implements Event {
    }

    /**
     * The reader ended (end of stream, an error), or the client's idle watchdog fired
     * ({@code idle}); the second of the two, if both come, finds the client gone.
     */
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
    // Counters and the drops query (ChatServer reads them)
    // =====================================================================================

    /** {@link ChatServer#summary}. */
    String summary() {
        return served + " clients served, " + delivered + " lines delivered in " + writes.sum() + " writes, "
                + kicked + " disconnected as too slow, " + dropped + " lines dropped for slow readers";
    }

    /** {@link ChatServer#dropped}. */
    long dropped() {
        return dropped;
    }

    /** {@link ChatServer#delivered}. */
    long delivered() {
        return delivered;
    }

    /** {@link ChatServer#droppedFor}: asks the hub goroutine. */
    long droppedFor(String nick) {
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

    // =====================================================================================
    // The hub goroutine
    // =====================================================================================

    /** The hub goroutine: handles events until {@link #quit} is closed, then says goodbye ({@link #shutdown}). */
    void run() {
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

    /** {@link #send(Client, String)} of a line already made by {@link Client#wire}. */
    private void send(Client c, Client.Wire line) {
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
        Client.Wire w = Client.wire(line);
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
            c.link.close(); // wakes its writer, parked on the full socket
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
                c.link.close();
            } else if (chosen == ev && s.value() instanceof DropsQuery q) {
                answer(q);
            } else if (chosen == ev && s.value() instanceof FromCluster(ClusterBridge.Claimed k)) {
                ClusterBridge.release(k.token());
            } else if (chosen == late) {
                forced = true;
                for (Client c : clients) {
                    c.link.close();
                }
            }
        }
    }
}
