package io.gmp4j.bench.net;

import java.net.InetSocketAddress;
import java.util.List;

/**
 * The network benchmarks: which server each one loads and how the client loads it.
 * <ul>
 *   <li>{@code echo-c1}, {@code echo-c16}, {@code echo-c256}: {@link EchoLoad} with 1, 16 and
 *       256 connections against the echo servers (req/s, plus {@code -p99} in µs and
 *       {@code -cpu}, the server's CPU µs per request);</li>
 *   <li>{@code bulk}: {@link BulkLoad} with 4 connections streaming both ways (MB/s, plus
 *       {@code bulk-cpu} in server CPU µs per MB);</li>
 *   <li>{@code chat-fanout}: {@link ChatLoad}, 200 clients in one room, 10 senders with at most
 *       32 lines in flight each, against the chat servers (lines/s delivered, plus
 *       {@code chat-p99}, {@code chat-p99-slowest}, {@code chat-p99-median} in ms and
 *       {@code chat-fanout-cpu}).</li>
 * </ul>
 */
public final class NetBench {
    /** The benchmark names, in the order they run. */
    public static final List<String> NAMES = List.of("echo-c1", "echo-c16", "echo-c256", "bulk", "chat-fanout");
    /** Clients in the chat room. */
    public static final int CHAT_CLIENTS = 200;
    /** Clients of the room that send. */
    public static final int CHAT_SENDERS = 10;
    /** Lines a chat sender may have in flight. */
    public static final int CHAT_IN_FLIGHT = 32;
    /** Connections of the bulk benchmark. */
    public static final int BULK_CONNECTIONS = 4;

    private NetBench() {
    }

    /** True for a network benchmark's name. */
    public static boolean isNet(String bench) {
        return NAMES.contains(bench);
    }

    /** The kind of server {@code bench} loads: "echo" or "chat". */
    public static String serverKind(String bench) {
        check(bench);
        return bench.equals("chat-fanout") ? "chat" : "echo";
    }

    /** The implementations {@code bench} compares (go runs only when a Go toolchain is there). */
    public static List<String> impls(String bench) {
        return serverKind(bench).equals("chat") ? List.of("gmp4j", "netty", "go")
                : List.of("gmp4j", "netty", "jdk", "vertx", "go");
    }

    /** Connections the client opens for {@code bench}. */
    public static int connections(String bench) {
        check(bench);
        return switch (bench) {
            case "bulk" -> BULK_CONNECTIONS;
            case "chat-fanout" -> CHAT_CLIENTS;
            default -> Integer.parseInt(bench.substring("echo-c".length()));
        };
    }

    /**
     * Loads {@code server} as {@code bench} does, with {@code loops} client event-loop threads
     * (at most one per connection), and returns the figures; throws {@link LoadFailure} when
     * the accounting finds the server at fault.
     */
    public static List<Figure> run(String bench, InetSocketAddress server, WindowPlan plan, int loops) {
        int conns = connections(bench);
        int l = Math.min(loops, conns);
        return switch (bench) {
            case "bulk" -> new BulkLoad(server, conns, l).run(plan, bench).figures();
            case "chat-fanout" -> new ChatLoad(server, conns, CHAT_SENDERS, CHAT_IN_FLIGHT, l).run(plan).figures();
            default -> new EchoLoad(server, conns, l).run(plan, bench).figures();
        };
    }

    private static void check(String bench) {
        if (!isNet(bench)) {
            throw new IllegalArgumentException("not a network benchmark: '" + bench + "' (known: " + NAMES + ")");
        }
    }
}
