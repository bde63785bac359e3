package io.gmp4j.bench.net;

import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import io.vertx.core.net.NetServer;
import io.vertx.core.net.NetServerOptions;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The Vert.x 5 echo server: a {@link NetServer} whose connections pipe into themselves
 * ({@code socket.pipeTo(socket)}, Vert.x's back-pressured copy and its echo examples' way),
 * deployed as {@code procs}
 * verticle instances on one port (Vert.x spreads the connections over their event loops),
 * with an event-loop pool of {@code procs} and the native transport preferred.
 */
final class VertxEchoServer implements BenchServer {
    private final Vertx vertx;
    private final int port;

    private VertxEchoServer(Vertx vertx, int port) {
        this.vertx = vertx;
        this.port = port;
    }

    static VertxEchoServer start(int procs) throws IOException {
        Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(procs).setPreferNativeTransport(true));
        try {
            // Vert.x shares one bound port among servers that ask for the same port number; port
            // 0 would give each instance a port of its own, so take a free port and ask for it.
            IOException last = null;
            for (int attempt = 0; attempt < 3; attempt++) {
                int port = freePort();
                try {
                    await(vertx.deployVerticle(() -> new EchoVerticle(port), new DeploymentOptions().setInstances(procs)));
                    return new VertxEchoServer(vertx, port);
                } catch (IOException e) {
                    last = e; // someone took the port in between: try another
                }
            }
            throw last;
        } catch (IOException | RuntimeException e) {
            vertx.close();
            throw e;
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
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

    static <T> T await(Future<T> f) throws IOException {
        try {
            return f.toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new IOException("Vert.x: " + e.getCause(), e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        } catch (TimeoutException e) {
            throw new IOException("Vert.x did not answer in 30 s", e);
        }
    }

    @Override
    public InetSocketAddress address() {
        return new InetSocketAddress("127.0.0.1", port);
    }

    @Override
    public void close() {
        try {
            await(vertx.close());
        } catch (IOException ignored) {
            // closing anyway
        }
    }
}
