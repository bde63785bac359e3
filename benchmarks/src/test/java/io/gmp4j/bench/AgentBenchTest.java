package io.gmp4j.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code BenchMain hog agent-cost --impls gmp4j --quick --json} in a JVM of its own (Go's hog
 * row, where Go is installed, is left out: tests never need Go): every row of both
 * benchmarks comes back, and the hog's rows tell the three runtimes apart (without handoff or
 * agent the sleeper's one wake-up waits out the 2 s spin; with the agent it does not).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class AgentBenchTest {

    @Test
    void aQuickRunReportsEveryRowAndTheAgentPreempts() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>();
        cmd.add(java);
        cmd.addAll(BenchMain.split(BenchMain.DEFAULT_JVM_FLAGS));
        cmd.addAll(List.of("-Xmx256m", "-Dgmp4j.java=" + java,
                "-Dgmp4j.bench.childFlags=-Xms64m -Xmx1g -XX:-AlwaysPreTouch",
                "-cp", System.getProperty("java.class.path"), BenchMain.class.getName(),
                "hog", "agent-cost", "--impls", "gmp4j", "--quick", "--json", "--warmup", "0", "--reps", "1"));
        // The children's stderr (their progress lines and any exception) goes to a file that a
        // failure quotes: a child that exits non-zero says why.
        Path err = Files.createTempFile("agent-bench", ".err");
        try {
            Process p = new ProcessBuilder(cmd).redirectError(err.toFile()).start();
            p.getOutputStream().close();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertTrue(p.waitFor(100, TimeUnit.SECONDS), "BenchMain did not finish");
            assertEquals(0, p.exitValue(), () -> out + "\nstderr:\n" + tail(err));
            check(out, err);
        } finally {
            Files.deleteIfExists(err);
        }
    }

    private static void check(String out, Path err) throws IOException {
        if (out.contains("\"error\"")) {
            throw new AssertionError("a child failed:\n" + out + "\nstderr:\n" + tail(err));
        }
        for (String impl : List.of("gmp4j", "gmp4j-agent", "gmp4j-none")) {
            for (String row : List.of("hog-p50", "hog-p99", "hog-max")) {
                value(out, row, impl);
            }
        }
        for (String impl : List.of("gmp4j", "gmp4j-agent", "gmp4j-agent-checked")) {
            for (String row : List.of("agent-cost-fib", "agent-cost-array-sum", "agent-cost-array-hash")) {
                assertTrue(value(out, row, impl) > 0, row + " " + impl);
            }
        }
        assertTrue(value(out, "hog-p99", "gmp4j-none") >= 1000, out);
        assertTrue(value(out, "hog-p99", "gmp4j-agent") < 1000, out);
    }

    /** The last 60 lines of the children's stderr. */
    private static String tail(Path err) {
        try {
            List<String> lines = Files.readAllLines(err, StandardCharsets.UTF_8);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 60), lines.size()));
        } catch (IOException e) {
            return "(stderr unreadable: " + e + ")";
        }
    }

    private static double value(String out, String bench, String impl) {
        String head = "{\"bench\":\"" + bench + "\",\"impl\":\"" + impl + "\",\"procs\":1,\"value\":";
        return out.lines().filter(l -> l.startsWith(head)).findFirst()
                .map(l -> Double.parseDouble(l.substring(head.length(), l.indexOf(',', head.length()))))
                .orElseThrow(() -> new AssertionError("no " + bench + " row for " + impl + " in:\n" + out));
    }
}
