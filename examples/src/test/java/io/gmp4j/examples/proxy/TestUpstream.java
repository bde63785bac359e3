package io.gmp4j.examples.proxy;

import io.gmp4j.TestSupport;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An upstream server for the proxy tests, in plain Java (a platform thread per connection, so
 * it shares nothing with the runtime under test). It counts connections: accepted, open now,
 * and the most open at once. A connection stops counting as open when its handler calls
 * {@link Peer#ended} (on reading the end of stream, before answering it) or returns.
 */
final class TestUpstream implements AutoCloseable {
    /** What the upstream does with one connection. */
    @FunctionalInterface
    interface Handler {
        void handle(Peer p) throws IOException, InterruptedException;
    }

    /** One accepted connection, as its handler sees it. */
    final class Peer {
        final Socket socket;
        final InputStream in;
        final OutputStream out;
        private boolean ended;

        Peer(Socket socket) throws IOException {
            this.socket = socket;
            this.in = socket.getInputStream();
            this.out = socket.getOutputStream();
        }

        /** This connection no longer counts as open (idempotent). */
        void ended() {
            if (!ended) {
                ended = true;
                open.decrementAndGet();
            }
        }
    }

    private final ServerSocket server;
    private final Handler handler;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    final AtomicInteger accepted = new AtomicInteger();
    final AtomicInteger open = new AtomicInteger();
    final AtomicInteger maxOpen = new AtomicInteger();

    private TestUpstream(Handler handler, int backlog) throws IOException {
        this.handler = handler;
        this.server = new ServerSocket(0, backlog, InetAddress.getLoopbackAddress());
        Thread.ofPlatform().daemon().name("upstream-" + server.getLocalPort()).start(this::acceptLoop);
    }

    /** Starts an upstream on a free loopback port. */
    static TestUpstream start(Handler handler) throws IOException {
        return new TestUpstream(handler, 128);
    }

    /** Echoes what it reads; at the end of stream half-closes back. */
    static TestUpstream echo() throws IOException {
        return start(TestUpstream::echo);
    }

    /** The echo handler, for handlers that do something first. */
    static void echo(Peer p) throws IOException {
        byte[] buf = new byte[64 * 1024];
        int n;
        while ((n = p.in.read(buf)) >= 0) {
            p.out.write(buf, 0, n);
        }
        p.ended();
        p.socket.shutdownOutput();
    }

    /** Reads to the end of stream, then answers "{@code <bytes> <sha256>}\n" and half-closes. */
    static void digestAfterEof(Peer p) throws IOException {
        Digest d = Digest.of(p.in);
        p.ended();
        p.out.write((d.bytes() + " " + d.sha256() + "\n").getBytes(StandardCharsets.US_ASCII));
        p.socket.shutdownOutput();
    }

    InetSocketAddress address() {
        return (InetSocketAddress) server.getLocalSocketAddress();
    }

    private void acceptLoop() {
        while (true) {
            Socket s;
            try {
                s = server.accept();
            } catch (IOException e) {
                return; // closed
            }
            sockets.add(s);
            accepted.incrementAndGet();
            int now = open.incrementAndGet();
            maxOpen.accumulateAndGet(now, Math::max);
            Thread.ofPlatform().daemon().name("upstream-conn").start(() -> serve(s));
        }
    }

    private void serve(Socket s) {
        Peer p = null;
        try {
            s.setSoTimeout((int) (TestSupport.TIMEOUT_S * 1000)); // a safety net: a test that needs it has failed
            p = new Peer(s);
            handler.handle(p);
        } catch (SocketException e) {
            // the proxy closed or reset the connection: the tests look at what the client saw
        } catch (IOException | InterruptedException e) {
            System.err.println("upstream handler failed: " + e);
        } finally {
            if (p != null) {
                p.ended();
            } else {
                open.decrementAndGet();
            }
            try {
                s.close();
            } catch (IOException ignored) {
                // closing
            }
            sockets.remove(s);
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        for (Socket s : sockets) {
            s.close();
        }
    }

    /** How many bytes a stream had and their SHA-256. */
    record Digest(long bytes, String sha256) {
        static Digest of(byte[] data) {
            MessageDigest md = newSha256();
            md.update(data);
            return new Digest(data.length, HexFormat.of().formatHex(md.digest()));
        }

        /** Reads {@code in} to its end. */
        static Digest of(InputStream in) throws IOException {
            MessageDigest md = newSha256();
            byte[] buf = new byte[64 * 1024];
            long total = 0;
            int n;
            while ((n = in.read(buf)) >= 0) {
                md.update(buf, 0, n);
                total += n;
            }
            return new Digest(total, HexFormat.of().formatHex(md.digest()));
        }

        private static MessageDigest newSha256() {
            try {
                return MessageDigest.getInstance("SHA-256");
            } catch (NoSuchAlgorithmException e) {
                throw new AssertionError(e);
            }
        }
    }

    /**
     * A port that does not answer a connect: a listening socket with a backlog of one that
     * never accepts, its accept queue filled until a probe connect times out. Linux then drops
     * further SYNs, so a dial there waits for its connect timeout.
     */
    static final class BlackHole implements AutoCloseable {
        private final ServerSocket server;
        private final java.util.List<Socket> fillers = new java.util.ArrayList<>();

        BlackHole() throws IOException {
            server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
            for (int i = 0; i < 64; i++) {
                Socket s = new Socket();
                fillers.add(s);
                try {
                    s.connect(server.getLocalSocketAddress(), 500);
                } catch (java.net.SocketTimeoutException e) {
                    return; // full: this connect got no answer
                }
            }
            throw new IllegalStateException("the accept queue never filled after 64 connects");
        }

        InetSocketAddress address() {
            return (InetSocketAddress) server.getLocalSocketAddress();
        }

        @Override
        public void close() throws IOException {
            for (Socket s : fillers) {
                s.close();
            }
            server.close();
        }
    }


    /** Waits for a latch inside a handler, with the safety-net timeout. */
    static void await(CountDownLatch gate) throws InterruptedException {
        if (!gate.await(TestSupport.TIMEOUT_S, java.util.concurrent.TimeUnit.SECONDS)) {
            throw new IllegalStateException("gate never opened");
        }
    }
}
