package io.gmp4j.examples.chat;

import io.gmp4j.GoRuntime;
import java.io.IOException;
import java.time.Duration;
import java.util.Set;

/**
 * {@code ./gmp4j run chat [--port 7000] [--max-clients N] [--max-line N] [--idle 5m]
 * [--queue N] [--slow-policy disconnect|drop] [--trace-ms N]}: runs {@link ChatServer} on 127.0.0.1 until Ctrl-C, which says
 * goodbye to every client.
 */
public final class ChatDemo {
    private static final String USAGE = "usage: ./gmp4j run chat [--port 7000] [--max-clients N] [--max-line N]"
            + " [--idle 5m|30s|0] [--queue N] [--slow-policy disconnect|drop] [--trace-ms N]";

    private static final Set<String> FLAGS =
            Set.of("--port", "--max-clients", "--max-line", "--idle", "--queue", "--slow-policy", "--trace-ms");

    private ChatDemo() {
    }

    /**
     * The parsed command line.
     *
     * @param port    the port to listen on, on 127.0.0.1
     * @param traceMs schedtrace period in ms; 0: none
     * @param cfg     the server's limits and slow-client policy
     * @param help    {@code -h}/{@code --help} was given: print the usage and stop
     */
    record Options(int port, long traceMs, ChatServer.Config cfg, boolean help) {
    }

    /**
     * Parses the flags.
     *
     * @throws IllegalArgumentException with a message naming the flag, for an unknown flag, a
     *                                  missing value, or a value that is not what the flag takes
     */
    static Options parse(String... args) {
        int port = 7000;
        long traceMs = 0;
        ChatServer.Config cfg = ChatServer.Config.defaults();
        for (int i = 0; i < args.length; i++) {
            String flag = args[i];
            if (flag.equals("-h") || flag.equals("--help")) {
                return new Options(port, traceMs, cfg, true);
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
                    case "--max-clients" -> cfg = cfg.withMaxClients(Integer.parseInt(value));
                    case "--max-line" -> cfg = cfg.withMaxLine(Integer.parseInt(value));
                    case "--idle" -> cfg = cfg.withIdle(parseDuration(value));
                    case "--queue" -> cfg = cfg.withQueue(Integer.parseInt(value));
                    case "--slow-policy" -> cfg = cfg.withSlowPolicy(ChatServer.SlowPolicy.parse(value));
                    case "--trace-ms" -> traceMs = Long.parseLong(value);
                    default -> throw new AssertionError("a flag in FLAGS without a case: " + flag);
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(flag + " takes a number, not '" + value + "'", e);
            } catch (IllegalArgumentException e) { // a limit below 1, an unknown policy
                throw new IllegalArgumentException(flag + ": " + e.getMessage(), e);
            }
        }
        return new Options(port, traceMs, cfg, false);
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
        ChatServer.Config cfg = o.cfg();
        long traceMs = o.traceMs();
        GoRuntime rt = GoRuntime.builder().name("chat").schedtrace(traceMs).build();
        ChatServer server;
        try {
            server = ChatServer.start(rt, "127.0.0.1:" + port, cfg);
        } catch (IOException e) {
            System.err.println("chat: cannot listen on 127.0.0.1:" + port + ": " + e.getMessage()
                    + " (try --port <another>)");
            System.exit(1);
            return;
        }
        int p = server.address().getPort();
        System.out.printf("gmp4j chat listening on 127.0.0.1:%d (max %d clients, %d-byte lines, idle %s, slow clients: %s)%n",
                p, cfg.maxClients(), cfg.maxLine(), cfg.idle().isPositive() ? ChatServer.human(cfg.idle()) : "off",
                cfg.slowPolicy().name().toLowerCase(java.util.Locale.ROOT));
        System.out.printf("connect with:  nc 127.0.0.1 %d   (or: telnet 127.0.0.1 %d); Ctrl-C stops the server%n", p, p);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            System.out.println("\nchat stopped: " + server.summary());
        }, "chat-shutdown"));
        server.awaitStopped(Duration.ofDays(365 * 100L));
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
