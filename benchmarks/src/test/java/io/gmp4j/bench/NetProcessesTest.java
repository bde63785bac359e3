package io.gmp4j.bench;

import io.gmp4j.bench.net.LoadClient;
import io.gmp4j.bench.net.ServerMain;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The network benchmarks' process wiring, as {@link BenchMain} runs it: a server process that
 * prints its port and stops when its stdin closes, the load client process that reads the
 * server's CPU time and prints result lines, and the proxy benchmarks' chain (echo backend,
 * proxy, client through the proxy measuring the proxy's CPU).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class NetProcessesTest {
    private static List<String> jvm(String mainClass, String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        cmd.addAll(BenchMain.split(BenchMain.DEFAULT_JVM_FLAGS));
        cmd.addAll(List.of("-Xmx256m", "-cp", System.getProperty("java.class.path"), mainClass));
        cmd.addAll(List.of(args));
        return cmd;
    }

    /** Runs the load client with {@code args} to the end and returns its result lines. */
    private static List<ChildRunner.Result> runClient(String... args) throws Exception {
        Process client = new ProcessBuilder(jvm(LoadClient.class.getName(), args))
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        client.getOutputStream().close();
        String out = new String(client.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(client.waitFor(60, TimeUnit.SECONDS), "the client did not finish");
        assertEquals(0, client.exitValue(), "client output: " + out);
        List<ChildRunner.Result> results = new ArrayList<>();
        for (String line : out.lines().toList()) {
            if (line.startsWith(BenchChild.RESULT_PREFIX)) {
                results.add(ChildRunner.parseResult(line));
            }
        }
        return results;
    }

    @Test
    void serverProcessAndLoadClientProduceResultLines() throws Exception {
        ServerProcess server = ServerProcess.start(jvm(ServerMain.class.getName(), "echo", "netty", "1"), Map.of(),
                "[test server] ");
        List<ChildRunner.Result> results;
        try (server) {
            assertTrue(server.port() > 0);
            results = runClient("echo-c16", "netty", "1", "0+2", Integer.toString(server.port()), "--window-ms", "200",
                    "--server-pid", Long.toString(server.pid()));
        }
        assertEquals(List.of("echo-c16", "echo-c16-p99", "echo-c16-cpu"), results.stream().map(ChildRunner.Result::bench).toList());
        for (ChildRunner.Result r : results) {
            assertEquals("netty", r.impl());
            assertTrue(r.value() > 0, r.toString());
        }
        assertEquals("req/s", results.get(0).unit());
    }

    @Test
    void theProxyChainPutsTheProxyBetweenTheClientAndTheEchoBackend() throws Exception {
        ServerLauncher launcher = new ServerLauncher(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                BenchMain.split(BenchMain.DEFAULT_JVM_FLAGS), List.of("-Xms64m", "-Xmx256m"),
                System.getProperty("java.class.path"), null);
        List<ChildRunner.Result> results;
        try (ServerChain chain = ServerChain.start(launcher, "proxy-rps-c16", "netty", 1)) {
            assertTrue(chain.cpuPid() > 0, "the proxy's CPU is measured");
            results = runClient("proxy-rps-c16", "netty", "1", "0+2", Integer.toString(chain.port()), "--window-ms", "200",
                    "--server-pid", Long.toString(chain.cpuPid()));
        }
        assertEquals(List.of("proxy-rps-c16", "proxy-p99", "proxy-rps-c16-cpu"),
                results.stream().map(ChildRunner.Result::bench).toList());
        assertEquals(List.of("req/s", "us", "us/op"), results.stream().map(ChildRunner.Result::unit).toList());
        for (ChildRunner.Result r : results) {
            assertTrue(r.value() > 0, r.toString());
        }
        try (ServerChain direct = ServerChain.start(launcher, "proxy-rps-c16", "direct", 1)) {
            assertTrue(direct.port() > 0);
            assertEquals(0, direct.cpuPid(), "direct has no proxy whose CPU could be measured");
        }
    }

    @Test
    void aServerThatCannotStartIsReportedWithItsOutput() {
        IOException e = assertThrows(IOException.class, () -> ServerProcess.start(
                jvm(ServerMain.class.getName(), "echo", "nosuch", "1"), Map.of(), "[test server] "));
        assertTrue(e.getMessage().contains("no echo server for impl 'nosuch'"), e.getMessage());
    }

    @Test
    void optionsKnowTheNetworkBenchmarks() {
        BenchOptions o = BenchOptions.parse(new String[]{"echo-c16", "chat-fanout", "--impls", "gmp4j,netty,vertx",
                "--window-ms", "300"});
        assertEquals(List.of("echo-c16", "chat-fanout"), o.benches);
        assertEquals(300, o.window());
        assertEquals(500, BenchOptions.parse(new String[]{"bulk", "--quick"}).window());
        BenchOptions proxy = BenchOptions.parse(new String[]{"proxy-rps-c16", "proxy-rps-c256", "proxy-bulk",
                "--impls", "gmp4j,netty,go,direct"});
        assertEquals(List.of("proxy-rps-c16", "proxy-rps-c256", "proxy-bulk"), proxy.benches);
        assertEquals(List.of("gmp4j", "netty", "go", "direct"), proxy.impls);
        assertThrows(IllegalArgumentException.class, () -> BenchOptions.parse(new String[]{"--window-ms", "0"}));
    }
}
