package io.gmp4j.bench.remote;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;

/**
 * A {@link RemotePeer} JVM started by the driver with the driver's own java, JVM flags and
 * class path (so both nodes run alike), waited for until it prints its ready line. Its output
 * goes to stderr with a label. Stopped by closing its stdin, or killed with SIGKILL.
 */
final class PeerProcess implements AutoCloseable {
    private static final long START_TIMEOUT_S = 120;
    private static final long STOP_TIMEOUT_S = 30;

    private final Process process;
    private final String info;

    private PeerProcess(Process process, String info) {
        this.process = process;
        this.info = info;
    }

    /**
     * Starts the peer of {@code impl} with {@code args} and waits for its ready line.
     *
     * @throws IOException when it cannot start, exits first, or is not ready in time; the
     *                     message carries its last output lines
     */
    static PeerProcess start(String impl, List<String> args, String label) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElseThrow(() -> new IOException("cannot tell this JVM's java")));
        cmd.addAll(ManagementFactory.getRuntimeMXBean().getInputArguments());
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), RemotePeer.class.getName(), impl));
        cmd.addAll(args);
        Process p = new ProcessBuilder(cmd).start();
        Deque<String> tail = new ArrayDeque<>();
        CompletableFuture<String> ready = new CompletableFuture<>();
        pump(p.getErrorStream(), line -> {
            System.err.println(label + line);
            keep(tail, line);
        });
        pump(p.getInputStream(), line -> {
            if (line.startsWith(RemotePeer.READY_PREFIX)) {
                ready.complete(line.substring(RemotePeer.READY_PREFIX.length()).strip());
            } else {
                System.err.println(label + "(stdout) " + line);
                keep(tail, line);
            }
        });
        p.onExit().thenRun(() -> ready.completeExceptionally(
                new IOException("the peer exited with status " + p.exitValue() + " before it was ready")));
        try {
            return new PeerProcess(p, ready.get(START_TIMEOUT_S, TimeUnit.SECONDS));
        } catch (ExecutionException | TimeoutException | InterruptedException e) {
            p.destroyForcibly();
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            String why = e instanceof TimeoutException ? "not ready within " + START_TIMEOUT_S + " s"
                    : e instanceof ExecutionException ee ? ee.getCause().getMessage() : "interrupted";
            synchronized (tail) {
                throw new IOException("the " + impl + " peer: " + why + "; last output: " + String.join(" | ", tail));
            }
        }
    }

    /** What its ready line said. */
    String info() {
        return info;
    }

    long pid() {
        return process.pid();
    }

    /** SIGKILL ({@code destroyForcibly} on Linux); returns {@code System.nanoTime()} just before it. */
    long kill() {
        long t0 = System.nanoTime();
        process.destroyForcibly();
        return t0;
    }

    /** Waits until it has exited (after {@link #kill}). */
    void awaitExit() throws InterruptedException {
        if (!process.waitFor(STOP_TIMEOUT_S, TimeUnit.SECONDS)) {
            throw new IllegalStateException("the peer " + process.pid() + " has not exited " + STOP_TIMEOUT_S + " s after SIGKILL");
        }
    }

    /** Closes its stdin (the signal to leave) and waits; kills it if it does not exit in time. */
    @Override
    public void close() {
        io.gmp4j.bench.ChildJvm.stop(process, STOP_TIMEOUT_S, "remote bench: the peer");
    }

    private static void keep(Deque<String> tail, String line) {
        synchronized (tail) {
            tail.addLast(line);
            while (tail.size() > 40) {
                tail.removeFirst();
            }
        }
    }

    private static void pump(InputStream in, Consumer<String> sink) {
        Thread t = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    sink.accept(line);
                }
            } catch (IOException e) {
                sink.accept("(reading the peer's output failed: " + e + ")");
            }
        }, "peer-pump");
        t.setDaemon(true);
        t.start();
    }
}
