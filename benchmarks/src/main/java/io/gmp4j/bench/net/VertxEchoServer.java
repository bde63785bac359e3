package io.gmp4j.bench.net;

import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetServerOptions;

import java.io.IOException;

/**
 * The Vert.x 5 echo server: a {@link NetServer} whose connections pipe into themselves
 * ({@code socket.pipeTo(socket)}, Vert.x's back-pressured copy and its echo examples' way),
 * deployed as {@code procs} verticle instances on one port with an event-loop pool of
 * {@code procs} ({@link VertxServer}).
 */
final class VertxEchoServer {
    private VertxEchoServer() {
    }

    /** Starts the echo server with {@code procs} event loops and as many verticle instances. */
    static BenchServer start(int procs) throws IOException {
        return VertxServer.start(procs, EchoVerticle::new);
    }

    /** One server instance on its own event loop. */
    private static final class EchoVerticle extends VerticleBase {
        private final int port;

        EchoVerticle(int port) {
            this.port = port;
        }

        @Override
        public Future<?> start() {
            NetServer server = vertx.createNetServer(new NetServerOptions().setHost("127.0.0.1").setPort(port).setTcpNoDelay(true))
                    .connectHandler(socket -> socket.pipeTo(socket));
            return server.listen();
        }
    }
}
