package io.gmp4j.bench.net;

import io.gmp4j.examples.AcceptBackoff;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The JDK echo server: {@link ServerSocket} with a virtual thread per connection on the
 * default scheduler (its parallelism comes from the JVM's command line:
 * {@code -Djdk.virtualThreadScheduler.parallelism=N -Djdk.virtualThreadScheduler.maxPoolSize=N}),
 * each reading into a {@value GmpEchoServer#BUFFER}-byte buffer and writing what it read.
 */
final class JdkEchoServer implements BenchServer {
    private final ServerSocket server;
    private final Set<Socket> open = ConcurrentHashMap.newKeySet();
    /** The accept loop's thread: {@link #close} interrupts its back-off sleep. */
    private volatile Thread acceptor;

    private JdkEchoServer(ServerSocket server) {
        this.server = server;
    }

    static JdkEchoServer start() throws IOException {
        ServerSocket ss = new ServerSocket(0, 1024, InetAddress.getLoopbackAddress());
        JdkEchoServer s = new JdkEchoServer(ss);
        s.acceptor = Thread.ofVirtual().name("jdk-echo-accept").start(s::acceptLoop);
        return s;
    }

    /**
     * The accept loop, with the back-off of Go's ({@link AcceptBackoff}): returns once the
     * server socket is closed; any other accept error (out of descriptors) is logged to stderr
     * and retried after the delay, slept as a virtual thread sleeps (this is the JDK server).
     */
    private void acceptLoop() {
        AcceptBackoff backoff = new AcceptBackoff();
        while (true) {
            Socket s;
            try {
                s = server.accept();
            } catch (IOException e) {
                if (server.isClosed()) {
                    return;
                }
                Duration d = backoff.next();
                System.err.println(AcceptBackoff.line("jdk-echo", e, d));
                try {
                    Thread.sleep(d);
                } catch (InterruptedException stop) {
                    return; // close() interrupts
                }
                continue;
            }
            backoff.reset();
            open.add(s);
            Thread.ofVirtual().start(() -> echo(s));
        }
    }

    private void echo(Socket s) {
        try (s) {
            s.setTcpNoDelay(true);
            InputStream in = s.getInputStream();
            OutputStream out = s.getOutputStream();
            byte[] buf = new byte[GmpEchoServer.BUFFER];
            int n;
            while ((n = in.read(buf)) > 0) {
                out.write(buf, 0, n);
            }
        } catch (IOException e) {
            // the client went away
        } finally {
            open.remove(s);
        }
    }

    @Override
    public InetSocketAddress address() {
        return (InetSocketAddress) server.getLocalSocketAddress();
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException ignored) {
            // closing anyway
        }
        Thread a = acceptor;
        if (a != null) {
            a.interrupt(); // after the close: the loop sees it closed and returns
        }
        for (Socket s : open) {
            try {
                s.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }
}
