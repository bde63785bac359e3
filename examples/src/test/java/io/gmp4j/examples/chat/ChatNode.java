package io.gmp4j.examples.chat;

import io.gmp4j.TestSupport;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * A chat node in a child JVM: {@code ChatDemo --port 0 --cluster} with the cluster's name,
 * Hazelcast port and members given as {@code gmp4j.cluster.*} properties, its output collected
 * (and waited on) by a reader thread.
 */
final class ChatNode implements AutoCloseable {
    private static final Pattern LISTENING = Pattern.compile("gmp4j chat listening on 127\\.0\\.0\\.1:(\\d+) ");
    private static final Pattern NODE_ID = Pattern.compile("cluster '[^']*': this node (\\S+), ");
    /** What Hazelcast asks for (it warns at start-up without it), as the cluster module's tests give it. */
    private static final List<String> HAZELCAST_FLAGS = List.of("--add-modules", "java.se",
            "--add-exports", "java.base/jdk.internal.ref=ALL-UNNAMED", "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED",
            "--add-opens", "java.management/sun.management=ALL-UNNAMED",
            "--add-opens", "jdk.management/com.sun.management.internal=ALL-UNNAMED");

    final String name;
    final Process process;
    private final StringBuilder out = new StringBuilder();
    private int port;
    private String id;

    private ChatNode(String name, Process process) {
        this.name = name;
        this.process = process;
    }

    /** Starts a node of cluster {@code cluster} on Hazelcast port {@code hzPort}, contacting {@code members}. */
    static ChatNode start(String name, String cluster, int hzPort, String members, String... chatFlags) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElseThrow());
        cmd.addAll(TestSupport.GMP4J_JVM_FLAGS);
        cmd.addAll(HAZELCAST_FLAGS);
        cmd.addAll(List.of("-Xss1m", "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-Dgmp4j.cluster.name=" + cluster, "-Dgmp4j.cluster.port=" + hzPort, "-Dgmp4j.cluster.members=" + members,
                "-cp", System.getProperty("java.class.path"), ChatDemo.class.getName(), "--port", "0", "--cluster"));
        cmd.addAll(List.of(chatFlags));
        ChatNode n = new ChatNode(name, new ProcessBuilder(cmd).redirectErrorStream(true).start());
        Thread reader = new Thread(n::read, "chat-node-" + name + "-reader");
        reader.setDaemon(true);
        reader.start();
        return n;
    }

    private void read() {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                synchronized (this) {
                    out.append(line).append('\n');
                    Matcher m = LISTENING.matcher(line);
                    if (m.lookingAt()) {
                        port = Integer.parseInt(m.group(1));
                    }
                    m = NODE_ID.matcher(line);
                    if (m.lookingAt()) {
                        id = m.group(1);
                    }
                    notifyAll();
                }
            }
        } catch (IOException e) {
            synchronized (this) {
                out.append("(reading the node's output failed: ").append(e).append(")\n");
            }
        } finally {
            synchronized (this) {
                out.append("(end of output)\n");
                notifyAll();
            }
        }
    }

    /** Waits (at most {@link TestSupport#TIMEOUT_S}) until the output so far satisfies {@code p}. */
    synchronized void await(Predicate<String> p, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(TestSupport.TIMEOUT_S);
        while (!p.test(out.toString())) {
            long left = deadline - System.nanoTime();
            if (left <= 0 || out.toString().endsWith("(end of output)\n")) {
                fail("node " + name + ": " + what + "; its output:\n" + out);
            }
            TimeUnit.NANOSECONDS.timedWait(this, left);
        }
    }

    /** Waits until it listens and has joined the cluster. */
    void awaitStarted() throws InterruptedException {
        await(o -> port > 0 && id != null, "not listening in the cluster");
    }

    /** Waits until it has seen {@code n} other nodes join (cumulative). */
    void awaitPeersJoined(int n) throws InterruptedException {
        await(o -> count(o, "chat: node ", " joined (") >= n, "fewer than " + n + " other nodes joined");
    }

    synchronized InetSocketAddress address() {
        return new InetSocketAddress("127.0.0.1", port);
    }

    synchronized String output() {
        return out.toString();
    }

    private static int count(String text, String start, String contains) {
        int n = 0;
        for (String l : text.split("\n")) {
            if (l.startsWith(start) && l.contains(contains)) {
                n++;
            }
        }
        return n;
    }

    /** Sends signal {@code sig} ({@code STOP}, {@code CONT}) with kill(1). */
    void signal(String sig) throws IOException, InterruptedException {
        Process k = new ProcessBuilder("kill", "-" + sig, Long.toString(process.pid())).inheritIO().start();
        if (!k.waitFor(TestSupport.TIMEOUT_S, TimeUnit.SECONDS) || k.exitValue() != 0) {
            fail("kill -" + sig + " " + process.pid() + " failed");
        }
    }

    /** kill -9. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(TestSupport.TIMEOUT_S, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            kill();
        }
    }
}
