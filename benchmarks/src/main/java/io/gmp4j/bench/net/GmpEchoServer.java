package io.gmp4j.bench.net;

import io.gmp4j.GoRuntime;
import io.gmp4j.chan.Chan;
import io.gmp4j.examples.AcceptBackoff;
import io.gmp4j.net.Conn;
import io.gmp4j.net.Listener;
import io.gmp4j.net.Net;
import io.gmp4j.net.NetClosedException;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
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
    /** Closed by {@link #close}: ends an accept back-off early. */
    private final Chan<Void> quit;

    private GmpEchoServer(GoRuntime rt, Listener listener, Chan<Void> quit) {
        this.rt = rt;
        this.listener = listener;
        this.quit = quit;
    }

    static GmpEchoServer start(int procs) throws IOException {
        GoRuntime rt = GoRuntime.builder().name("echo").maxProcs(procs).build();
        try {
            Listener l = listen(rt, "127.0.0.1:0");
            Chan<Void> quit = new Chan<>();
            rt.go(() -> acceptLoop(rt, l, quit));
            return new GmpEchoServer(rt, l, quit);
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

    /**
     * Go's accept loop: returns once the listener is closed; any other accept error (out of
     * descriptors) is logged to stderr and retried after {@link AcceptBackoff}'s delay.
     */
    private static void acceptLoop(GoRuntime rt, Listener l, Chan<Void> quit) {
        AcceptBackoff backoff = new AcceptBackoff(quit);
        while (true) {
            Conn c;
            try {
                c = l.accept();
            } catch (NetClosedException e) {
                return; // the listener was closed
            } catch (IOException e) {
                Duration d = backoff.next();
                System.err.println(AcceptBackoff.line("echo", e, d));
                if (!backoff.pause(d)) {
                    return;
                }
                continue;
            }
            backoff.reset();
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
        quit.close();
        rt.close();
    }
}
