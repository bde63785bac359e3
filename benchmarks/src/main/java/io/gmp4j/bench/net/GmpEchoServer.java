package io.gmp4j.bench.net;

import io.gmp4j.GoRuntime;
import io.gmp4j.net.Conn;
import io.gmp4j.net.Listener;
import io.gmp4j.net.Net;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The gmp4j echo server, written as Go writes one: an accept loop and a goroutine per
 * connection that reads into a {@value #BUFFER}-byte buffer and writes what it read, until
 * end of stream. Runs on its own runtime with {@code maxProcs(procs)}.
 */
final class GmpEchoServer implements BenchServer {
    /** The read buffer per connection (what Go's {@code io.Copy} uses). */
    static final int BUFFER = 32 * 1024;

    private final GoRuntime rt;
    private final Listener listener;

    private GmpEchoServer(GoRuntime rt, Listener listener) {
        this.rt = rt;
        this.listener = listener;
    }

    static GmpEchoServer start(int procs) throws IOException {
        GoRuntime rt = GoRuntime.builder().name("echo").maxProcs(procs).build();
        try {
            Listener l = listen(rt, "127.0.0.1:0");
            rt.go(() -> acceptLoop(rt, l));
            return new GmpEchoServer(rt, l);
        } catch (IOException | RuntimeException e) {
            rt.close();
            throw e;
        }
    }

    /** {@link Net#listen} from a goroutine of {@code rt}, so the listener belongs to that runtime. */
    static Listener listen(GoRuntime rt, String address) throws IOException {
        CompletableFuture<Listener> f = new CompletableFuture<>();
        rt.go(() -> {
            try {
                f.complete(Net.listen(address));
            } catch (Throwable t) {
                f.completeExceptionally(t);
            }
        });
        try {
            return f.get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw e.getCause() instanceof IOException io ? io : new IOException("listen " + address, e.getCause());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while listening on " + address, e);
        } catch (TimeoutException e) {
            throw new IOException("listen " + address + ": no answer from the runtime in 30 s", e);
        }
    }

    private static void acceptLoop(GoRuntime rt, Listener l) {
        while (true) {
            Conn c;
            try {
                c = l.accept();
            } catch (IOException e) {
                return; // the listener was closed
            }
            rt.go(() -> echo(c));
        }
    }

    private static void echo(Conn c) {
        try (c) {
            byte[] buf = new byte[BUFFER];
            int n;
            while ((n = c.read(buf, 0, buf.length)) > 0) {
                c.write(buf, 0, n);
            }
        } catch (IOException e) {
            // the client went away: nothing to answer
        }
    }

    @Override
    public InetSocketAddress address() {
        return listener.address();
    }

    @Override
    public void close() {
        listener.close();
        rt.close();
    }
}
