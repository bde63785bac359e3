package io.gmp4j.bench.net;

import io.gmp4j.GoRuntime;
import io.gmp4j.examples.chat.ChatConfig;
import io.gmp4j.examples.chat.ChatServer;

import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * The chat example's WebSocket side ({@link ChatServer} with a web address: a goroutine per
 * WebSocket through gmp4j-vertx, the same hub, queues and writers as its TCP clients), with the
 * queue of {@link GmpChatServer#QUEUE} lines per client, on its own runtime with
 * {@code maxProcs(procs)} and as many Vert.x event loops. The load connects to its web port
 * ({@link #address}); its TCP port is open too but unused.
 */
final class GmpWsChatServer implements BenchServer {
    private final GoRuntime rt;
    private final ChatServer server;

    private GmpWsChatServer(GoRuntime rt, ChatServer server) {
        this.rt = rt;
        this.server = server;
    }

    static GmpWsChatServer start(int procs) throws IOException {
        GoRuntime rt = GoRuntime.builder().name("chat-ws").maxProcs(procs).build();
        try {
            return new GmpWsChatServer(rt, ChatServer.start(rt, "127.0.0.1:0", "127.0.0.1:0",
                    ChatConfig.defaults().withQueue(GmpChatServer.QUEUE)));
        } catch (IOException | RuntimeException e) {
            rt.close();
            throw e;
        }
    }

    /** The web port: the WebSockets at {@link NetBench#WS_PATH}. */
    @Override
    public InetSocketAddress address() {
        return server.webAddress();
    }

    @Override
    public void close() {
        server.close();
        System.err.println("gmp4j chat-ws: " + server.summary());
        rt.close();
    }
}
