package io.gmp4j.bench.net;

import io.vertx.core.DeploymentOptions;
import io.vertx.core.Future;
import io.vertx.core.VerticleBase;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.IntFunction;

/**
 * A plain Vert.x 5 server under load: one Vert.x instance with an event-loop pool of
 * {@code procs} and the native transport preferred, running {@code procs} instances of one
 * verticle on one port of 127.0.0.1 (Vert.x shares the bound port among them and spreads the
 * connections over their event loops). {@link VertxEchoServer} and {@link VertxWsChatServer}
 * are this with their own verticle.
 */
final class VertxServer implements BenchServer {
    private final Vertx vertx;
    private final int port;

    private VertxServer(Vertx vertx, int port) {
        this.vertx = vertx;
        this.port = port;
    }

    /**
     * Deploys {@code procs} instances of the verticle that {@code verticle} makes for a port, all
     * on one free port; a Vert.x that could not deploy them is closed again.
     *
     * @throws IOException when no instance could listen (three free ports tried), or Vert.x did
     *                     not answer
     */
    static VertxServer start(int procs, IntFunction<? extends VerticleBase> verticle) throws IOException {
        Vertx vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(procs).setPreferNativeTransport(true));
        try {
            // Vert.x shares one bound port among servers that ask for the same port number; port
            // 0 would give each instance a port of its own, so take a free port and ask for it.
            IOException last = null;
            for (int attempt = 0; attempt < 3; attempt++) {
                int port = freePort();
                try {
                    await(vertx.deployVerticle(() -> verticle.apply(port), new DeploymentOptions().setInstances(procs)));
                    return new VertxServer(vertx, port);
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

    /** {@code f}'s result, waited for at most 30 s; its failure as an {@link IOException}. */
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
