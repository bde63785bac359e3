package io.gmp4j.bench;

import io.gmp4j.bench.net.ServerMain;

import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A benchmark server in its own process (a {@link ServerMain} JVM or the Go binary's server
 * mode): started, waited for until it prints its port, and stopped by closing its standard
 * input (killed if it does not exit). Its output goes to stderr with a label.
 */
final class ServerProcess implements AutoCloseable {
    /** How long a server may take to print its port. */
    static final long START_TIMEOUT_S = 60;
    private static final long STOP_TIMEOUT_S = 20;

    private final Process process;
    private final int port;
    private final Deque<String> tail;

    private ServerProcess(Process process, int port, Deque<String> tail) {
        this.process = process;
        this.port = port;
        this.tail = tail;
    }

    /**
     * Starts {@code cmd} with {@code env} added and waits until it prints
     * {@code @listening port=N}.
     *
     * @throws IOException when it cannot start, exits first, or stays silent for
     *                     {@value #START_TIMEOUT_S} s; the message carries its last output lines
     */
    static ServerProcess start(List<String> cmd, Map<String, String> env, String label) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.environment().putAll(env);
        Process p = pb.start();
        Deque<String> tail = new ArrayDeque<>();
        CompletableFuture<Integer> port = new CompletableFuture<>();
        ChildRunner.pump(p.getErrorStream(), line -> {
            System.err.println(label + line);
            ChildRunner.keep(tail, line);
        });
        ChildRunner.pump(p.getInputStream(), line -> {
            if (line.startsWith(ServerMain.LISTENING_PREFIX) && !port.isDone()) {
                try {
                    port.complete(Integer.parseInt(line.substring(ServerMain.LISTENING_PREFIX.length()).trim()));
                } catch (NumberFormatException e) {
                    port.completeExceptionally(new IOException("bad port line: " + line));
                }
            } else {
                System.err.println(label + "(stdout) " + line);
                ChildRunner.keep(tail, line);
            }
        });
        p.onExit().thenRun(() -> port.completeExceptionally(
                new IOException("the server exited with status " + p.exitValue() + " before it listened")));
        try {
            return new ServerProcess(p, port.get(START_TIMEOUT_S, TimeUnit.SECONDS), tail);
        } catch (ExecutionException | TimeoutException | InterruptedException e) {
            p.destroyForcibly();
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            String why = e instanceof TimeoutException ? "did not print its port within " + START_TIMEOUT_S + " s"
                    : e instanceof ExecutionException ee ? ee.getCause().getMessage() : "interrupted";
            throw new IOException(why + "; last output: " + lastLines(tail));
        }
    }

    int port() {
        return port;
    }

    long pid() {
        return process.pid();
    }

    /** Its last output lines, for a failure report. */
    String lastOutput() {
        return lastLines(tail);
    }

    private static String lastLines(Deque<String> tail) {
        synchronized (tail) {
            return tail.isEmpty() ? "(none)" : String.join(" | ", tail);
        }
    }

    /** Closes its stdin (the signal to stop) and waits; kills it if it does not exit in time. */
    @Override
    public void close() {
        ChildJvm.stop(process, STOP_TIMEOUT_S, "gmp4j bench: note: the server");
    }
}
