package io.gmp4j.bench.net;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;

/**
 * A server under load: an echo or chat server, or a proxy in front of an echo server, of one
 * implementation, listening on a free loopback port until closed.
 */
public interface BenchServer extends AutoCloseable {
    /** The echo servers' implementations. */
    List<String> ECHO_IMPLS = List.of("gmp4j", "netty", "jdk", "vertx");
    /** The chat servers' implementations. */
    List<String> CHAT_IMPLS = List.of("gmp4j", "netty");
    /** The WebSocket chat servers' implementations: the chat example's and a plain Vert.x one. */
    List<String> CHAT_WS_IMPLS = List.of("gmp4j", "vertx");
    /** The proxies' implementations. */
    List<String> PROXY_IMPLS = List.of("gmp4j", "netty");

    /** Where it listens. */
    InetSocketAddress address();

    /** Stops it: no more connections, the open ones closed, its threads gone. */
    @Override
    void close();

    /**
     * Starts the {@code kind} ("echo", "chat" or "chat-ws") server of implementation {@code impl} with
     * {@code procs} processors (GOMAXPROCS, event-loop threads, or virtual-thread parallelism,
     * which the JVM takes from its command line).
     */
    static BenchServer start(String kind, String impl, int procs) throws IOException {
        checkProcs(procs);
        return switch (kind + "/" + impl) {
            case "echo/gmp4j" -> GmpEchoServer.start(procs);
            case "echo/netty" -> NettyEchoServer.start(procs);
            case "echo/jdk" -> JdkEchoServer.start();
            case "echo/vertx" -> VertxEchoServer.start(procs);
            case "chat/gmp4j" -> GmpChatServer.start(procs);
            case "chat/netty" -> NettyChatServer.start(procs);
            case "chat-ws/gmp4j" -> GmpWsChatServer.start(procs);
            case "chat-ws/vertx" -> VertxWsChatServer.start(procs);
            default -> throw new IllegalArgumentException("no " + kind + " server for impl '" + impl + "' (echo: "
                    + ECHO_IMPLS + ", chat: " + CHAT_IMPLS + ", chat-ws: " + CHAT_WS_IMPLS + ")");
        };
    }

    /**
     * Starts the proxy of implementation {@code impl} with {@code procs} processors (GOMAXPROCS
     * or event-loop threads), forwarding every connection to {@code upstream}.
     */
    static BenchServer startProxy(String impl, int procs, InetSocketAddress upstream) throws IOException {
        checkProcs(procs);
        return switch (impl) {
            case "gmp4j" -> GmpProxyServer.start(procs, upstream);
            case "netty" -> NettyProxyServer.start(procs, upstream);
            default -> throw new IllegalArgumentException("no proxy for impl '" + impl + "' (proxy: " + PROXY_IMPLS + ")");
        };
    }

    private static void checkProcs(int procs) {
        if (procs < 1) {
            throw new IllegalArgumentException("procs must be >= 1, got " + procs);
        }
    }
}
