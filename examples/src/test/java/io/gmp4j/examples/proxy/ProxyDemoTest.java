package io.gmp4j.examples.proxy;

import io.gmp4j.TestSupport;
import io.gmp4j.examples.Examples;
import io.gmp4j.examples.proxy.TestUpstream.Digest;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/**
 * {@code ./gmp4j run proxy} as a user runs it: a child JVM through the examples' entry point.
 * A bad flag exits with status 2 and the usage; a running proxy forwards, logs each
 * connection, and on SIGTERM (what Ctrl-C's SIGINT also does: run the shutdown hook) closes
 * and prints its final stats.
 */
class ProxyDemoTest {
    /** The last "line" of {@link #lines}: the child's output ended. */
    private static final String END = "(end of output)";
    private static final Pattern LISTENING = Pattern.compile("gmp4j proxy listening on 127\\.0\\.0\\.1:(\\d+) -> .*");

    @Test
    void aBadFlagExitsWithStatus2AndTheUsage() throws Exception {
        Process p = child("--upstream", "127.0.0.1:9001", "--max-conns", "lots");
        assertTrue(p.waitFor(TestSupport.TIMEOUT_S, TimeUnit.SECONDS), "the child JVM did not exit");
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(2, p.exitValue(), err);
        assertTrue(err.startsWith("proxy: --max-conns: 'lots' is not a number\nusage: ./gmp4j run proxy"), err);
    }

    @Test
    void itForwardsLogsEachConnectionAndStopsCleanlyOnSigterm() throws Exception {
        try (TestUpstream echo = TestUpstream.echo()) {
            Process p = child("--listen", "127.0.0.1:0", "--upstream", ConnRecord.hostPort(echo.address()),
                    "--stats-interval", "0");
            BlockingQueue<String> out = lines(p);
            try {
                String banner = out.poll(TestSupport.TIMEOUT_S, TimeUnit.SECONDS);
                assertNotNull(banner, "no banner");
                Matcher m = LISTENING.matcher(banner);
                assertTrue(m.matches(), banner);
                InetSocketAddress addr = new InetSocketAddress("127.0.0.1", Integer.parseInt(m.group(1)));
                byte[] data = new byte[70_000];
                new java.util.Random(3).nextBytes(data);
                assertEquals(Digest.of(data), ProxyServerTest.transfer(addr, data).received());
                String logged = out.poll(TestSupport.TIMEOUT_S, TimeUnit.SECONDS);
                assertNotNull(logged, "no connection line");
                assertTrue(logged.matches("conn #1 127\\.0\\.0\\.1:\\d+ -> " + ConnRecord.hostPort(echo.address())
                        + " up=70000 down=70000 in \\d+\\.\\d{3}s: EOF"), logged);

                p.toHandle().destroy(); // SIGTERM (Process.destroy would also close our end of its output)
                assertTrue(p.waitFor(TestSupport.TIMEOUT_S, TimeUnit.SECONDS), "the proxy did not stop");
                List<String> rest = new ArrayList<>();
                for (String l; !(l = out.poll(TestSupport.TIMEOUT_S, TimeUnit.SECONDS)).equals(END); ) {
                    rest.add(l);
                }
                assertTrue(rest.contains("proxy stopped: stats: active=0 total=1 up=70000 down=70000 failovers=0 errors=0 idle=0"),
                        rest::toString);
            } finally {
                p.destroyForcibly();
            }
        }
    }

    /** {@code ./gmp4j run proxy ARGS} in a child JVM with this JVM's flags and class path. */
    private static Process child(String... args) throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElseThrow());
        for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (!a.startsWith("-javaagent") && !a.startsWith("-agentlib")) {
                cmd.add(a);
            }
        }
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Examples.class.getName(), "proxy"));
        cmd.addAll(List.of(args));
        return new ProcessBuilder(cmd).start();
    }

    /** The child's standard output, line by line, read on a thread of its own, then {@link #END}. */
    private static BlockingQueue<String> lines(Process p) {
        BlockingQueue<String> q = new LinkedBlockingQueue<>();
        Thread.ofPlatform().daemon().name("child-stdout").start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String l; (l = r.readLine()) != null; ) {
                    q.add(l);
                }
            } catch (IOException e) {
                q.add("(stdout failed: " + e + ")");
            } finally {
                q.add(END);
            }
        });
        return q;
    }
}
