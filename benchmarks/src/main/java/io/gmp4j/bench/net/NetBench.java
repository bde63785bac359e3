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
 *       {@code chat-fanout-cpu});</li>
 *   <li>{@code chat-ws-fanout}: the same load over WebSockets (one text frame per line, path
 *       {@code /ws}) against the chat example's WebSocket side and a plain Vert.x event-loop chat
 *       ({@code chat-ws-lines} lines/s, plus {@code chat-ws-p99}, {@code chat-ws-p99-slowest},
 *       {@code chat-ws-p99-median} in ms and {@code chat-ws-cpu});</li>
 *   <li>{@code proxy-rps-c16}, {@code proxy-rps-c256}: {@link EchoLoad} with 16 and 256
 *       connections through a proxy in front of an echo server (req/s, plus {@code proxy-p99}
 *       at 16 connections and {@code proxy-p99-c256} in µs, and {@code -cpu}, the proxy's CPU
 *       µs per request);</li>
 *   <li>{@code proxy-bulk}: {@link BulkLoad} with 4 connections through the proxy (MB/s, plus
 *       {@code proxy-bulk-cpu}).</li>
 *   <li>{@code echo-turns-c16}, {@code echo-turns-c256}: the echo load against every
 *       implementation's server at once, the servers taking turns window by window
 *       ({@link InterleavedEcho}), so that the machine's drift falls on all of them alike; the
 *       same figures as {@code echo-c16}/{@code echo-c256} under the {@code echo-turns-} names.</li>
 * </ul>
 * The proxy benchmarks' server side is a chain: the Netty echo server as the backend for every
 * implementation, so only the proxy differs, and the implementation's proxy in front of it;
 * implementation {@code direct} has no proxy (the client reaches the backend: the reference).
 */
public final class NetBench {
    /** The benchmark names, in the order they run. */
    public static final List<String> NAMES = List.of("echo-c1", "echo-c16", "echo-c256", "bulk", "chat-fanout",
            "chat-ws-fanout", "proxy-rps-c16", "proxy-rps-c256", "proxy-bulk", "echo-turns-c16", "echo-turns-c256");
    /** Clients in the chat room. */
    public static final int CHAT_CLIENTS = 200;
    /** Clients of the room that send. */
    public static final int CHAT_SENDERS = 10;
    /** Lines a chat sender may have in flight. */
    public static final int CHAT_IN_FLIGHT = 32;
    /** Where the WebSocket chat servers take WebSockets. */
    public static final String WS_PATH = "/ws";
    /** Connections of the bulk benchmark. */
    public static final int BULK_CONNECTIONS = 4;

    private NetBench() {
    }

    /** True for a network benchmark's name. */
    public static boolean isNet(String bench) {
        return NAMES.contains(bench);
    }

    /** True for a benchmark whose servers all run at once and take turns ({@link InterleavedEcho}). */
    public static boolean takesTurns(String bench) {
        return bench.startsWith("echo-turns-");
    }

    /**
     * The kind of server {@code bench} loads: "echo", "chat", "chat-ws" (a chat over WebSockets)
     * or "proxy" (a proxy in front of an echo server).
     */
    public static String serverKind(String bench) {
        check(bench);
        return switch (bench) {
            case "chat-fanout" -> "chat";
            case "chat-ws-fanout" -> "chat-ws";
            default -> bench.startsWith("proxy-") ? "proxy" : "echo";
        };
    }

    /** The implementations {@code bench} compares (go runs only when a Go toolchain is there). */
    public static List<String> impls(String bench) {
        return switch (serverKind(bench)) {
            case "chat" -> List.of("gmp4j", "netty", "go");
            case "chat-ws" -> BenchServer.CHAT_WS_IMPLS;
            case "proxy" -> List.of("gmp4j", "netty", "go", "direct");
            default -> List.of("gmp4j", "netty", "jdk", "vertx", "go");
        };
    }

    /** Connections the client opens for {@code bench}. */
    public static int connections(String bench) {
        check(bench);
        return switch (bench) {
            case "bulk", "proxy-bulk" -> BULK_CONNECTIONS;
            case "chat-fanout", "chat-ws-fanout" -> CHAT_CLIENTS;
            default -> Integer.parseInt(bench.substring(bench.lastIndexOf("-c") + 2));
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
            case "bulk", "proxy-bulk" -> new BulkLoad(server, conns, l).run(plan, bench).figures();
            case "chat-fanout" -> new ChatLoad(server, conns, CHAT_SENDERS, CHAT_IN_FLIGHT, l).run(plan).figures();
            case "chat-ws-fanout" -> new ChatLoad(server, conns, CHAT_SENDERS, CHAT_IN_FLIGHT, l, WS_PATH).run(plan)
                    .figures();
            case "echo-turns-c16", "echo-turns-c256" ->
                    throw new IllegalArgumentException(bench + " loads several servers: use runTurns");
            default -> new EchoLoad(server, conns, l).run(plan, bench).figures().stream()
                    .map(f -> new Figure(figureName(f.bench()), f.unit(), f.samples())).toList();
        };
    }

    /**
     * Loads {@code servers} in turns as {@code bench} (a {@link #takesTurns} benchmark) says and
     * returns each server's figures, in the servers' order.
     */
    public static List<List<Figure>> runTurns(String bench, List<InetSocketAddress> servers, List<Long> pids,
                                              WindowPlan plan, int loops) {
        if (!takesTurns(bench)) {
            throw new IllegalArgumentException("'" + bench + "' does not take turns");
        }
        int conns = connections(bench);
        return new InterleavedEcho(servers, pids, conns, Math.min(loops, conns * servers.size()))
                .run(plan.warmups(), plan.measured(), plan.windowMillis(), bench);
    }

    /**
     * The reported name of an echo load's figure: the proxy's p99 rows are {@code proxy-p99}
     * (16 connections) and {@code proxy-p99-c256}; every other name stays.
     */
    static String figureName(String name) {
        return switch (name) {
            case "proxy-rps-c16-p99" -> "proxy-p99";
            case "proxy-rps-c256-p99" -> "proxy-p99-c256";
            default -> name;
        };
    }

    private static void check(String bench) {
        if (!isNet(bench)) {
            throw new IllegalArgumentException("not a network benchmark: '" + bench + "' (known: " + NAMES + ")");
        }
    }
}
