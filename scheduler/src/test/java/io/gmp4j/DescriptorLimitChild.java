package io.gmp4j.examples;

import io.gmp4j.TestSupport;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
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
import java.util.List;
import java.util.function.BooleanSupplier;

/**
 * The child-JVM side of the descriptor-limit tests (run under {@code ulimit -n 256}): takes
 * every free descriptor, gives one back for a client socket so that the server's accept of it
 * fails with EMFILE, then gives them all back. (The benchmarks' echo test has its twin: the
 * modules share no test classes.) What the server logs to stderr is kept, to
 * check its accept-error line.
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
