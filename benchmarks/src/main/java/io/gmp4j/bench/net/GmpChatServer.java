package io.gmp4j.bench.net;

import io.gmp4j.GoRuntime;
import io.gmp4j.examples.chat.ChatServer;

import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * The chat example ({@link ChatServer}) with its default limits, on its own runtime with
 * {@code maxProcs(procs)}.
 */
final class GmpChatServer implements BenchServer {
    private final GoRuntime rt;
    private final ChatServer server;

    private GmpChatServer(GoRuntime rt, ChatServer server) {
        this.rt = rt;
        this.server = server;
    }

    static GmpChatServer start(int procs) throws IOException {
        GoRuntime rt = GoRuntime.builder().name("chat").maxProcs(procs).build();
        try {
            return new GmpChatServer(rt, ChatServer.start(rt, "127.0.0.1:0", ChatServer.Config.defaults()));
        } catch (IOException | RuntimeException e) {
            rt.close();
            throw e;
        }
    }

    @Override
    public InetSocketAddress address() {
        return server.address();
    }

    @Override
    public void close() {
        server.close();
        System.err.println("gmp4j chat: " + server.summary());
        rt.close();
    }
}
