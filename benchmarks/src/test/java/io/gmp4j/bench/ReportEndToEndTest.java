package io.gmp4j.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code BenchMain spawn --quick --report DIR} in a JVM of its own, as {@code ./gmp4j bench}
 * runs it: gmp4j and jdk at procs 1 and 2 (children with a small heap), then the page and
 * the charts in DIR.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ReportEndToEndTest {

    @Test
    void aQuickRunWritesThePageAndItsCharts(@TempDir Path dir) throws Exception {
        Path report = dir.resolve("report");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        List<String> cmd = new ArrayList<>();
        cmd.add(java);
        cmd.addAll(BenchMain.split(BenchMain.DEFAULT_JVM_FLAGS));
        cmd.addAll(List.of("-Xmx256m", "-Dgmp4j.java=" + java,
                "-Dgmp4j.bench.childFlags=-Xms64m -Xmx1g -XX:-AlwaysPreTouch",
                "-cp", System.getProperty("java.class.path"), BenchMain.class.getName(),
                "spawn", "--procs", "1,2", "--impls", "gmp4j,jdk", "--quick", "--warmup", "0", "--reps", "1",
                "--report", report.toString()));
        Process p = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        p.getOutputStream().close();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(100, TimeUnit.SECONDS), "BenchMain did not finish");
        assertEquals(0, p.exitValue(), err);
        assertTrue(err.contains("gmp4j bench: report written:\n  " + report.resolve("README.md") + "\n"), err);

        String md = Files.readString(report.resolve("README.md"));
        assertTrue(md.contains("Command: `./gmp4j bench spawn --procs 1,2 --impls gmp4j,jdk --quick --warmup 0 --reps 1"
                + " --report " + report + "`"), md);
        assertTrue(Pattern.compile("\\| start \\| \\d+ \\| \\d+\\.\\d\\d \\| (yes|no) \\|").matcher(md).find(), md);
        assertTrue(Pattern.compile("\\| end \\| \\d+ \\| \\d+\\.\\d\\d \\| (yes|no) \\|").matcher(md).find(), md);
        assertTrue(md.contains("| impl | procs 1 (ms) | procs 2 (ms) | gmp4j/impl procs 1 | gmp4j/impl procs 2 |"), md);
        assertTrue(Pattern.compile("\\| gmp4j \\| [\\d.]+ \\| [\\d.]+ \\| – \\| – \\|").matcher(md).find(), md);
        assertTrue(Pattern.compile("\\| jdk \\| [\\d.]+ \\| [\\d.]+ \\| [\\d.]+ \\| [\\d.]+ \\|").matcher(md).find(), md);
        for (String chart : List.of("summary.png", "spawn.png")) {
            assertTrue(md.contains("](charts/" + chart + ")"), md);
            assertNotNull(ImageIO.read(report.resolve("charts").resolve(chart).toFile()), chart);
        }
    }

    @Test
    void reportNeedsADirectory() {
        assertThrows(IllegalArgumentException.class, () -> BenchOptions.parse(new String[]{"spawn", "--report"}));
        assertEquals(Path.of("r").toAbsolutePath(), BenchOptions.parse(new String[]{"--report", "r"}).reportDir);
    }
}
