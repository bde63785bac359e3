package io.gmp4j.examples.chat;

import io.gmp4j.GoRuntime;
import java.io.IOException;
import java.time.Duration;

/**
 * {@code ./gmp4j run chat [--port 7000] [--max-clients N] [--max-line N] [--idle 5m]
 * [--queue N] [--trace-ms N]}: runs {@link ChatServer} on 127.0.0.1 until Ctrl-C, which says
 * goodbye to every client.
 */
public final class ChatDemo {
    private static final String USAGE = "usage: ./gmp4j run chat [--port 7000] [--max-clients N] [--max-line N]"
            + " [--idle 5m|30s|0] [--queue N] [--trace-ms N]";

    private ChatDemo() {
    }

    public static void main(String[] args) {
        int port = 7000;
        long traceMs = 0;
        ChatServer.Config cfg = ChatServer.Config.defaults();
        try {
            for (int i = 0; i < args.length; i++) {
                switch (args[i]) {
                    case "--port" -> port = Integer.parseInt(args[++i]);
                    case "--max-clients" -> cfg = cfg.withMaxClients(Integer.parseInt(args[++i]));
                    case "--max-line" -> cfg = cfg.withMaxLine(Integer.parseInt(args[++i]));
                    case "--idle" -> cfg = cfg.withIdle(parseDuration(args[++i]));
                    case "--queue" -> cfg = cfg.withQueue(Integer.parseInt(args[++i]));
                    case "--trace-ms" -> traceMs = Long.parseLong(args[++i]);
                    case "-h", "--help" -> {
                        System.out.println(USAGE);
                        return;
                    }
                    default -> throw new IllegalArgumentException("unknown flag " + args[i]);
                }
            }
        } catch (RuntimeException e) { // a bad number, a missing value, an unknown flag
            System.err.println("chat: " + e.getMessage() + "\n" + USAGE);
            System.exit(2);
        }
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
        System.out.printf("gmp4j chat listening on 127.0.0.1:%d (max %d clients, %d-byte lines, idle %s)%n",
                p, cfg.maxClients(), cfg.maxLine(), cfg.idle().isPositive() ? ChatServer.human(cfg.idle()) : "off");
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
