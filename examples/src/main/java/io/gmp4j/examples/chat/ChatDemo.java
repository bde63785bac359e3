package io.gmp4j.examples.chat;

import io.gmp4j.GoRuntime;
import io.gmp4j.actor.ActorSystem;
import io.gmp4j.cluster.ClusterNode;
import java.io.IOException;
import java.time.Duration;
import java.util.Set;

/**
 * {@code ./gmp4j run chat [--port 7000] [--http-port 8080] [--max-clients N] [--max-line N] [--idle 5m]
 * [--queue N] [--slow-policy disconnect|drop] [--trace-ms N] [--cluster]}: runs {@link ChatServer} on 127.0.0.1 until Ctrl-C, which says
 * goodbye to every client. The browser page is served on {@code http://127.0.0.1:8080/}
 * ({@code --http-port} another port, {@code 0}: none); when the default port is taken (a
 * second node on one machine) the page goes to a free port, which it prints. With {@code --cluster} it joins a gmp4j cluster
 * ({@link ClusterBridge#config()}: the {@code ClusterConfig} defaults, so chat nodes started on
 * one machine find each other) and serves the cluster's one set of rooms.
 */
public final class ChatDemo {
    private static final String USAGE = "usage: ./gmp4j run chat [--port 7000] [--http-port 8080|0] [--max-clients N] [--max-line N]"
            + " [--idle 5m|30s|0] [--queue N] [--slow-policy disconnect|drop] [--trace-ms N] [--cluster]";

    private static final Set<String> FLAGS =
            Set.of("--port", "--http-port", "--max-clients", "--max-line", "--idle", "--queue", "--slow-policy", "--trace-ms");

    private ChatDemo() {
    }

    /**
     * The parsed command line.
     *
     * @param port    the port to listen on, on 127.0.0.1
     * @param httpPort the port of the browser page and its WebSockets, on 127.0.0.1; 0: none
     * @param httpPortGiven {@code --http-port} was given (else a taken default port is not an error)
     * @param traceMs schedtrace period in ms; 0: none
     * @param cfg     the server's limits and slow-client policy
     * @param help    {@code -h}/{@code --help} was given: print the usage and stop
     * @param cluster {@code --cluster} was given: join the chat cluster
     */
    record Options(int port, int httpPort, boolean httpPortGiven, long traceMs, ChatConfig cfg, boolean help,
                   boolean cluster) {
    }

    /** The browser page's port unless {@code --http-port} says otherwise. */
    static final int DEFAULT_HTTP_PORT = 8080;

    /**
     * Parses the flags.
     *
     * @throws IllegalArgumentException with a message naming the flag, for an unknown flag, a
     *                                  missing value, or a value that is not what the flag takes
     */
    static Options parse(String... args) {
        int port = 7000;
        int httpPort = DEFAULT_HTTP_PORT;
        boolean httpPortGiven = false;
        long traceMs = 0;
        ChatConfig cfg = ChatConfig.defaults();
        boolean cluster = false;
        for (int i = 0; i < args.length; i++) {
            String flag = args[i];
            if (flag.equals("-h") || flag.equals("--help")) {
                return new Options(port, httpPort, httpPortGiven, traceMs, cfg, true, cluster);
            }
            if (flag.equals("--cluster")) {
                cluster = true;
                continue;
            }
            if (!FLAGS.contains(flag)) {
                throw new IllegalArgumentException("unknown flag " + flag);
            }
            if (i + 1 == args.length) {
                throw new IllegalArgumentException(flag + " needs a value");
            }
            String value = args[++i];
            try {
                switch (flag) {
                    case "--port" -> {
                        port = Integer.parseInt(value);
                        if (port < 0 || port > 65535) {
                            throw new IllegalArgumentException("port " + port + " out of range 0..65535");
                        }
                    }
                    case "--http-port" -> {
                        httpPort = Integer.parseInt(value);
                        httpPortGiven = true;
                        if (httpPort < 0 || httpPort > 65535) {
                            throw new IllegalArgumentException("port " + httpPort + " out of range 0..65535 (0: no page)");
                        }
                    }
                    case "--max-clients" -> cfg = cfg.withMaxClients(Integer.parseInt(value));
                    case "--max-line" -> cfg = cfg.withMaxLine(Integer.parseInt(value));
                    case "--idle" -> cfg = cfg.withIdle(parseDuration(value));
                    case "--queue" -> cfg = cfg.withQueue(Integer.parseInt(value));
                    case "--slow-policy" -> cfg = cfg.withSlowPolicy(ChatConfig.SlowPolicy.parse(value));
                    case "--trace-ms" -> traceMs = Long.parseLong(value);
                    default -> throw new AssertionError("a flag in FLAGS without a case: " + flag);
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(flag + " takes a number, not '" + value + "'", e);
            } catch (IllegalArgumentException e) { // a limit below 1, an unknown policy
                throw new IllegalArgumentException(flag + ": " + e.getMessage(), e);
            }
        }
        return new Options(port, httpPort, httpPortGiven, traceMs, cfg, false, cluster);
    }

    /** Runs the chat server until Ctrl-C; a bad flag prints the error and the usage, exit status 2. */
    public static void main(String[] args) {
        Options o;
        try {
            o = parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("chat: " + e.getMessage() + "\n" + USAGE);
            System.exit(2);
            return;
        }
        if (o.help()) {
            System.out.println(USAGE);
            return;
        }
        int port = o.port();
        ChatConfig cfg = o.cfg();
        long traceMs = o.traceMs();
        GoRuntime rt = GoRuntime.builder().name("chat").schedtrace(traceMs).build();
        ClusterNode node = null;
        ClusterBridge bridge = null;
        if (o.cluster()) {
            try {
                node = ClusterNode.join(ActorSystem.builder().name("chat").runtime(rt).build(), ClusterBridge.config());
            } catch (RuntimeException e) { // a bad gmp4j.cluster.* property, no cluster to join
                System.err.println("chat: " + e.getMessage());
                System.exit(1);
                return;
            }
            bridge = new ClusterBridge(node);
        }
        ChatServer server;
        try {
            server = startServer(rt, o, bridge);
        } catch (IOException e) {
            System.err.println("chat: " + e.getMessage());
            System.exit(1);
            return;
        }
        int p = server.address().getPort();
        System.out.printf("gmp4j chat listening on 127.0.0.1:%d (max %d clients, %d-byte lines, idle %s, slow clients: %s)%n",
                p, cfg.maxClients(), cfg.maxLine(), cfg.idle().isPositive() ? ChatConfig.human(cfg.idle()) : "off",
                cfg.slowPolicy().name().toLowerCase(java.util.Locale.ROOT));
        if (node != null) {
            System.out.printf("cluster '%s': this node %s, members: %d%n", node.config().clusterName(), node.nodeId(),
                    node.members().size());
        }
        System.out.printf("connect with:  nc 127.0.0.1 %d   (or: telnet 127.0.0.1 %d); Ctrl-C stops the server%n", p, p);
        if (server.webAddress() != null) {
            System.out.printf("in a browser:  http://127.0.0.1:%d/%n", server.webAddress().getPort());
        }
        ClusterNode joined = node;
        ClusterBridge b = bridge;
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            System.out.println("\nchat stopped: " + server.summary());
            if (joined != null) {
                System.out.println(b.summary());
                try {
                    joined.close();
                } catch (RuntimeException e) { // Hazelcast's own shutdown hook may have left already
                    System.err.println("chat: leaving the cluster: " + e.getMessage());
                }
            }
        }, "chat-shutdown"));
        server.awaitStopped(Duration.ofDays(365 * 100L));
    }

    /**
     * Starts the server as {@code o} says; when the page's default port is taken (and
     * {@code --http-port} was not given) the page goes to a free port instead, with a note.
     *
     * @throws IOException naming what could not listen, and the flag that changes it
     */
    static ChatServer startServer(GoRuntime rt, Options o, ClusterBridge bridge) throws IOException {
        String tcp = "127.0.0.1:" + o.port();
        String web = o.httpPort() == 0 ? null : "127.0.0.1:" + o.httpPort();
        try {
            return ChatServer.start(rt, tcp, web, o.cfg(), bridge);
        } catch (IOException e) {
            if (web == null || o.httpPortGiven() || !webFailed(e)) {
                throw new IOException(webFailed(e) ? "cannot serve the page: " + e.getMessage()
                        + " (try --http-port <another>, or 0 for no page)"
                        : e.getMessage().startsWith("join the chat cluster") ? e.getMessage()
                        : "cannot listen on " + tcp + ": " + e.getMessage() + " (try --port <another>)", e);
            }
            System.out.println("chat: port " + o.httpPort() + " is taken; the page goes to a free port (--http-port sets one)");
            try {
                return ChatServer.start(rt, tcp, "127.0.0.1:0", o.cfg(), bridge);
            } catch (IOException again) {
                throw new IOException(webFailed(again) ? "cannot serve the page: " + again.getMessage()
                        + " (try --http-port <another>, or 0 for no page)" : again.getMessage(), again);
            }
        }
    }

    private static boolean webFailed(IOException e) {
        return e.getMessage() != null && e.getMessage().startsWith("web ");
    }

    /** {@code 5m}, {@code 30s}, {@code 500ms}, {@code 1h}, or a number of seconds; 0: none. */
    static Duration parseDuration(String s) {
        if (s.endsWith("ms")) {
            return Duration.ofMillis(Long.parseLong(s.substring(0, s.length() - 2)));
        }
        long n = Long.parseLong(s.replaceAll("[smh]$", ""));
        return switch (s.charAt(s.length() - 1)) {
            case 'm' -> Duration.ofMinutes(n);
            case 'h' -> Duration.ofHours(n);
            default -> Duration.ofSeconds(n);
        };
    }
}
