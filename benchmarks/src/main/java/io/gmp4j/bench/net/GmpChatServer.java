package io.gmp4j.bench.net;

import io.gmp4j.GoRuntime;
import io.gmp4j.examples.chat.ChatConfig;
import io.gmp4j.examples.chat.ChatServer;

import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * The chat example ({@link ChatServer}) with its default limits except the queue
 * ({@link #QUEUE} lines per client, as the Go chat server of the benchmark), on its own runtime
 * with {@code maxProcs(procs)}.
 */
final class GmpChatServer implements BenchServer {
    /**
     * Lines queued per client before it counts as too slow: 8,192 here against the example's
     * default 1,024. At 5 million deliveries a second to 200 clients, 1,024 lines are 40 ms of one
     * client's traffic, and on two cores shared with the load client a receiver falls that far
     * behind now and then: both chat servers disconnected receivers in some runs (the load client
     * then fails the run). 8,192 lines are about 300 ms; the lines are shared between the
     * queues, so each costs a reference per client.
     */
    static final int QUEUE = 8192;

    private final GoRuntime rt;
    private final ChatServer server;

    private GmpChatServer(GoRuntime rt, ChatServer server) {
        this.rt = rt;
        this.server = server;
    }

    static GmpChatServer start(int procs) throws IOException {
        GoRuntime rt = GoRuntime.builder().name("chat").maxProcs(procs).build();
        try {
            return new GmpChatServer(rt, ChatServer.start(rt, "127.0.0.1:0", ChatConfig.defaults().withQueue(QUEUE)));
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
