package io.gmp4j.cluster;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gmp4j.TestSupport;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/** A cluster node ({@link ClusterPeer}, {@link ClusterChild}) in its own JVM: started on a test's cluster, then closed, killed or paused. */
final class PeerProcess implements AutoCloseable {
    final String tag;
    final Process process;
    final StringBuffer out = new StringBuffer();
    private volatile String nodeId;
    private final CountDownLatch ready = new CountDownLatch(1);

    private PeerProcess(String tag, Process process) {
        this.tag = tag;
        this.process = process;
    }

    /** Starts a {@link ClusterPeer} {@code tag} on {@code cluster}: Hazelcast port {@code port}, contacting {@code members}. */
    static PeerProcess start(String tag, String cluster, int port, String members, Map<String, String> props) throws IOException {
        return start(ClusterPeer.class, tag, cluster, port, members, props);
    }

    /** Starts {@code main} (a node that prints "READY nodeId") as peer {@code tag}, as above. */
    static PeerProcess start(Class<?> main, String tag, String cluster, int port, String members, Map<String, String> props)
            throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElseThrow());
        cmd.addAll(TestSupport.GMP4J_JVM_FLAGS);
        for (String a : java.lang.management.ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (a.startsWith("--add-modules=") || a.startsWith("--add-exports=") || a.startsWith("--add-opens=")) {
                cmd.add(a);
            }
        }
        cmd.addAll(List.of("-Xss1m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-Dgmp4j.test.tag=" + tag,
                "-D" + ClusterConfig.NAME_PROPERTY + "=" + cluster,
                "-D" + ClusterConfig.PORT_PROPERTY + "=" + port,
                "-D" + ClusterConfig.MEMBERS_PROPERTY + "=" + members));
        props.forEach((k, v) -> cmd.add("-D" + k + "=" + v));
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), main.getName()));
        PeerProcess p = new PeerProcess(tag, new ProcessBuilder(cmd).redirectErrorStream(true).start());
        Thread reader = new Thread(p::read, "peer-" + tag + "-reader");
        reader.setDaemon(true);
        reader.start();
        return p;
    }

    private void read() {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line; (line = r.readLine()) != null; ) {
                out.append(line).append('\n');
                if (line.startsWith("READY ")) {
                    nodeId = line.substring(6).strip();
                    ready.countDown();
                }
            }
        } catch (IOException e) {
            out.append("(reading the peer failed: ").append(e).append(")\n");
        }
        ready.countDown(); // ended: awaitReady reports it
    }

    /** Waits for READY; returns the peer's node id. */
    String awaitReady() {
        TestSupport.await(ready, () -> "peer " + tag + " not ready; its output:\n" + out);
        assertTrue(nodeId != null, () -> "peer " + tag + " ended before it was ready; its output:\n" + out);
        return nodeId;
    }

    String nodeId() {
        return nodeId;
    }

    /** SIGKILL. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(TestSupport.TIMEOUT_S, TimeUnit.SECONDS);
    }

    /** SIGSTOP or SIGCONT. */
    void signal(String sig) throws IOException, InterruptedException {
        Process k = new ProcessBuilder("kill", "-" + sig, Long.toString(process.pid())).inheritIO().start();
        assertTrue(k.waitFor(10, TimeUnit.SECONDS) && k.exitValue() == 0, "kill -" + sig + " failed");
    }

    /** Closes the peer's stdin: it closes its node cleanly and exits. */
    void leave() throws IOException, InterruptedException {
        process.getOutputStream().close();
        if (!process.waitFor(TestSupport.TIMEOUT_S, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            process.destroyForcibly();
        }
    }
}
