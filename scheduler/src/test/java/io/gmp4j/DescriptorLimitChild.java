package io.gmp4j;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.BooleanSupplier;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The child-JVM side of the descriptor-limit tests (run under {@code ulimit -n 256}): takes
 * every free descriptor, gives one back for a client socket so that the server's accept of it
 * fails with EMFILE, then gives them all back. What the server logs to stderr is kept, to
 * check its accept-error line. Also the parent's side, {@link #assertAcceptRetried}: the
 * descriptor-limit tests of the examples' chat and proxy servers and the benchmarks' echo
 * servers share both.
 */
public final class DescriptorLimitChild {
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();
    private final List<FileChannel> held = new ArrayList<>();

    /** From now on stderr is also kept here (the servers log their accept errors there). */
    public DescriptorLimitChild() {
        PrintStream real = System.err;
        System.setErr(new PrintStream(new OutputStream() {
            @Override
            public synchronized void write(int b) {
                real.write(b);
                err.write(b);
            }

            @Override
            public synchronized void write(byte[] b, int off, int len) {
                real.write(b, off, len);
                err.write(b, off, len);
            }
        }, true, StandardCharsets.UTF_8));
    }

    /**
     * The parent's side: runs {@code main} in a child JVM under {@code ulimit -n 256}, with this
     * JVM's flags (the runtime's --add-opens among them, agents left out), a small heap and
     * {@code extraFlags}.
     */
    public static TestSupport.ChildRun runUnderLowLimit(Class<?> main, String... extraFlags)
            throws IOException, InterruptedException {
        List<String> flags = new ArrayList<>();
        for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (!a.startsWith("-javaagent") && !a.startsWith("-agentlib") && !a.startsWith("-Xmx")) {
                flags.add(a);
            }
        }
        flags.add("-Xmx256m");
        flags.addAll(List.of(extraFlags));
        return TestSupport.runChildJvm(List.of("bash", "-c", "ulimit -n 256 && exec \"$0\" \"$@\""), flags, main);
    }

    /**
     * The parent's checks: runs {@code main} as {@link #runUnderLowLimit} does and asserts that
     * it exited 0, that its server's accept failed ({@code prefix}: accept error: ... too many
     * open files) and was retried after 5 ms, and that every client was served again. Returns
     * what the child printed, for the caller's own checks.
     */
    public static String assertAcceptRetried(Class<?> main, String prefix, String... extraFlags)
            throws IOException, InterruptedException {
        TestSupport.ChildRun run = runUnderLowLimit(main, extraFlags);
        String out = run.output();
        assertEquals(0, run.exit(), out);
        assertTrue(out.contains("accept error logged: true"), out);
        assertTrue(out.contains("served again: all "), out);
        // EMFILE in Go's words from a gmp4j listener (accept4: too many open files), in the
        // JDK's from a JDK ServerSocketChannel (Too many open files).
        assertTrue(Pattern.compile("(?m)^" + Pattern.quote(prefix) + ": accept error: .*[Tt]oo many open files; retrying in 5ms$")
                .matcher(out).find(), out);
        return out;
    }

    /** What was written to stderr so far. */
    public String stderr() {
        synchronized (System.err) {
            return err.toString(StandardCharsets.UTF_8);
        }
    }

    /** Opens /dev/null until the process is out of descriptors, then closes {@code spare} of them; returns how many it holds. */
    public int exhaust(int spare) throws IOException {
        Path devNull = Path.of("/dev/null");
        while (true) {
            try {
                held.add(FileChannel.open(devNull));
            } catch (FileSystemException e) {
                if (e.getMessage() == null || !e.getMessage().contains("Too many open files")) {
                    throw e;
                }
                break;
            }
            if (held.size() > 100_000) {
                throw new IllegalStateException("no descriptor limit: run under ulimit -n");
            }
        }
        for (int i = 0; i < spare; i++) {
            held.removeLast().close();
        }
        return held.size();
    }

    /**
     * Connects clients to {@code addr}, each with the one descriptor left free, until the server
     * logs {@code marker}: its accept of the last one failed for want of a descriptor. A client
     * the server could accept anyway (a descriptor it freed late, closing an earlier connection)
     * is followed by another. Returns the clients, descriptors still exhausted.
     */
    public List<Socket> connectUntilAcceptFails(InetSocketAddress addr, String marker) throws IOException, InterruptedException {
        List<Socket> pending = new ArrayList<>();
        for (int attempt = 0; attempt < 5; attempt++) {
            System.out.println("holding " + exhaust(1) + " descriptors");
            Socket s = new Socket();
            try {
                s.connect(addr, 10_000); // the last descriptor: the server's accept of it fails
            } catch (java.net.SocketException e) {
                s.close();
                if (e.getMessage() == null || !e.getMessage().contains("Too many open files")) {
                    throw e;
                }
                continue; // another thread of this JVM took the free descriptor first
            }
            pending.add(s);
            if (poll(() -> stderr().contains(marker), 2_000)) {
                System.out.println("accept error logged: true");
                return pending;
            }
        }
        System.out.println("accept error logged: false");
        return pending;
    }

    /** Gives every descriptor taken by {@link #exhaust} back. */
    public void release() throws IOException {
        for (FileChannel c : held) {
            c.close();
        }
        held.clear();
    }

    /**
     * The child's last step against an echo server (or a proxy to one) at {@code addr}, with
     * descriptors given back: each of {@code pending} (waiting in the backlog, accepted now) and
     * {@code newClients} new clients must be echoed. Prints how many were
     * ({@link #reportServed}); whether all were.
     */
    public static boolean echoedAgain(List<Socket> pending, InetSocketAddress addr, int newClients) throws IOException {
        int served = 0;
        for (Socket p : pending) { // each waited in the backlog: the server accepts it now
            served += echoed(p, "pending") ? 1 : 0; // SocketTimeoutException if never accepted
            p.close();
        }
        for (int i = 0; i < newClients; i++) {
            try (Socket s = new Socket()) {
                s.connect(addr, 10_000);
                served += echoed(s, "after" + i) ? 1 : 0;
            }
        }
        return reportServed(served, pending.size() + newClients);
    }

    /** Prints the line the parent checks, "served again: [all ]served of want"; whether all were. */
    public static boolean reportServed(int served, int want) {
        System.out.println("served again: " + (served == want ? "all " : "") + served + " of " + want);
        return served == want;
    }

    /** Writes {@code text} to an echo server and reads it back; whether it came back whole (15 s at most). */
    public static boolean echoed(Socket s, String text) throws IOException {
        s.setSoTimeout(15_000);
        byte[] want = text.getBytes(StandardCharsets.US_ASCII);
        s.getOutputStream().write(want);
        InputStream in = s.getInputStream();
        byte[] got = new byte[want.length];
        int n = 0;
        while (n < got.length) {
            int r = in.read(got, n, got.length - n);
            if (r < 0) {
                return false;
            }
            n += r;
        }
        return Arrays.equals(want, got);
    }

    /** Polls {@code condition} every 5 ms for at most {@code millis}; whether it held. */
    public static boolean poll(BooleanSupplier condition, long millis) throws InterruptedException {
        long deadline = System.nanoTime() + millis * 1_000_000;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            Thread.sleep(5);
        }
        return true;
    }
}
