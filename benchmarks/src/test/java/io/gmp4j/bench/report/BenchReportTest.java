package io.gmp4j.bench.report;

import io.gmp4j.bench.MachineProbe;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.imageio.ImageIO;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The report of a fixed run: the page's tables and ratios exactly, and real PNG charts. */
class BenchReportTest {

    private static final byte[] PNG_MAGIC = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

    /** A run with a time (ns/op, lower better) and a throughput (req/s, higher better), procs 1 and 2. */
    private static BenchReport.Run run() {
        List<BenchReport.Figure> figures = List.of(
                new BenchReport.Figure("pingpong", "gmp4j", 1, 100, "ns/op"),
                new BenchReport.Figure("pingpong", "jdk", 1, 400, "ns/op"),
                new BenchReport.Figure("pingpong", "gmp4j", 2, 250, "ns/op"),
                new BenchReport.Figure("pingpong", "jdk", 2, 200, "ns/op"),
                new BenchReport.Figure("echo-c16", "netty", 1, 100_000, "req/s"),
                new BenchReport.Figure("echo-c16", "gmp4j", 1, 80_000, "req/s"),
                new BenchReport.Figure("echo-c16", "go", 1, 64_000, "req/s"),
                new BenchReport.Figure("echo-c16", "gmp4j", 2, 120_000, "req/s"),
                new BenchReport.Figure("echo-c16", "netty", 2, 96_000, "req/s"));
        List<BenchReport.Probe> probes = List.of(
                new BenchReport.Probe("start", new MachineProbe.Reading(106.4, 1.624, true)),
                new BenchReport.Probe("end", new MachineProbe.Reading(450.2, 1.63, true)));
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("child java", "/usr/bin/java");
        settings.put("extra child flags", "");
        return new BenchReport.Run(List.of("pingpong", "echo-c16", "--procs", "1,2", "--report", "/tmp/my report"),
                Instant.parse("2026-12-03T15:00:00Z"), Instant.parse("2026-12-03T15:02:05Z"), settings, figures,
                probes, List.of("echo-c16 impl=go procs=2: child exited with status 1"), Set.of("req/s", "MB/s", "lines/s"));
    }

    private static List<String> lines(Path page) throws IOException {
        return Files.readAllLines(page, StandardCharsets.UTF_8);
    }

    private static void assertPng(Path file) throws IOException {
        assertTrue(Files.isRegularFile(file), file + " exists");
        byte[] bytes = Files.readAllBytes(file);
        assertArrayEquals(PNG_MAGIC, Arrays.copyOf(bytes, PNG_MAGIC.length), file + " starts as a PNG");
        BufferedImage img = ImageIO.read(file.toFile());
        assertNotNull(img, file + " decodes");
        assertTrue(img.getWidth() >= 640 && img.getWidth() <= 2400, "width " + img.getWidth());
        assertTrue(img.getHeight() >= 400 && img.getHeight() <= 600, "height " + img.getHeight());
    }

    @Test
    void thePageHoldsEveryFigureAndGmp4jsRatioToEachImplementation(@TempDir Path dir) throws IOException {
        List<Path> written = BenchReport.write(dir, run());
        Path page = dir.resolve("README.md");
        assertEquals(List.of(page, dir.resolve("charts/summary.png"), dir.resolve("charts/pingpong.png"),
                dir.resolve("charts/echo-c16.png")), written);
        List<String> md = lines(page);
        String text = String.join("\n", md);

        assertEquals("# gmp4j benchmark report", md.getFirst());
        assertTrue(md.contains("Command: `./gmp4j bench pingpong echo-c16 --procs 1,2 --report '/tmp/my report'`"
                + " (BenchMain's arguments; `./gmp4j bench` passes its own on unchanged)"), text);
        assertTrue(md.contains("Run from 2026-12-03 15:00:00 UTC to 2026-12-03 15:02:05 UTC (2 min 05 s)."), text);
        assertTrue(md.contains("| child java | /usr/bin/java |"), text);
        assertTrue(md.contains("| extra child flags | (none) |"), text);
        assertTrue(md.contains("| CPUs the JVM sees | " + Runtime.getRuntime().availableProcessors() + " |"), text);
        assertTrue(md.contains("| start | 106 | 1.62 | yes |"), text);
        assertTrue(md.contains("| end | 450 | 1.63 | yes |"), text);
        assertTrue(text.contains("**The machine changed during this run**"), text);

        int ping = md.indexOf("## pingpong");
        assertTrue(ping > 0, text);
        assertEquals(List.of(
                "## pingpong",
                "",
                "Unit ns/op: lower is better, so gmp4j/impl below 1 means gmp4j is better.",
                "",
                "| impl | procs 1 (ns/op) | procs 2 (ns/op) | gmp4j/impl procs 1 | gmp4j/impl procs 2 |",
                "|---|---:|---:|---:|---:|",
                "| gmp4j | 100.0 | 250.0 | – | – |",
                "| jdk | 400.0 | 200.0 | 0.25 | 1.25 |",
                "",
                "![pingpong](charts/pingpong.png)"), md.subList(ping, ping + 10));

        int echo = md.indexOf("## echo-c16");
        assertTrue(echo > ping, text);
        assertEquals(List.of(
                "## echo-c16",
                "",
                "Unit req/s: higher is better, so gmp4j/impl above 1 means gmp4j is better.",
                "",
                "| impl | procs 1 (req/s) | procs 2 (req/s) | gmp4j/impl procs 1 | gmp4j/impl procs 2 |",
                "|---|---:|---:|---:|---:|",
                "| gmp4j | 80000 | 120000 | – | – |",
                "| netty | 100000 | 96000 | 0.80 | 1.25 |",
                "| go | 64000 | – | 1.25 | – |",
                "",
                "![echo-c16](charts/echo-c16.png)"), md.subList(echo, echo + 11));

        int glance = md.indexOf("## At a glance");
        assertTrue(glance > 0 && glance < ping, text);
        assertEquals(List.of(
                "## At a glance",
                "",
                "gmp4j's figure and gmp4j/impl at procs 1 / 2 (\"–\" where one of the two has no figure); for times"
                        + " and costs below 1 means gmp4j is better, for throughputs (req/s) above 1 does.",
                "",
                "| benchmark (unit) | gmp4j | gmp4j/jdk | gmp4j/netty | gmp4j/go |",
                "|---|---:|---:|---:|---:|",
                "| pingpong (ns/op) | 100.0 / 250.0 | 0.25 / 1.25 |  |  |",
                "| echo-c16 (req/s) | 80000 / 120000 |  | 0.80 / 1.25 | 1.25 / – |",
                ""), md.subList(glance, glance + 9));

        assertTrue(md.indexOf("![gmp4j against each implementation](charts/summary.png)") < ping, text);
        assertTrue(md.contains("- echo-c16 impl=go procs=2: child exited with status 1"), text);
        for (Path png : written.subList(1, written.size())) {
            assertPng(png);
        }
    }

    @Test
    void theSummaryChartsGmp4jsAdvantageWithAboveOneMeaningBetter() {
        List<BenchReport.Section> sections = BenchReport.Section.of(run().figures(), run().higherIsBetter());
        ReportCharts.Chart summary = ReportCharts.summary(sections);
        assertNotNull(summary);
        var data = summary.chart().getCategoryPlot().getDataset();
        // pingpong (ns/op): jdk/gmp4j; echo-c16 (req/s): gmp4j/impl
        assertEquals(4.0, data.getValue("vs jdk, procs 1", "pingpong").doubleValue(), 1e-12);
        assertEquals(0.8, data.getValue("vs jdk, procs 2", "pingpong").doubleValue(), 1e-12);
        assertEquals(0.8, data.getValue("vs netty, procs 1", "echo-c16").doubleValue(), 1e-12);
        assertEquals(1.25, data.getValue("vs netty, procs 2", "echo-c16").doubleValue(), 1e-12);
        assertEquals(1.25, data.getValue("vs go, procs 1", "echo-c16").doubleValue(), 1e-12);
        assertEquals(5, data.getRowCount(), "no bar for go at procs 2, which has no figure");
    }

    @Test
    void withoutGmp4jOrWithOnlyGmp4jThereIsNoRatio(@TempDir Path dir) throws IOException {
        BenchReport.Run base = run();
        BenchReport.Run onlyGmp4j = new BenchReport.Run(base.args(), base.started(), base.finished(), base.settings(),
                base.figures().stream().filter(f -> f.impl().equals("gmp4j")).toList(), List.of(), List.of(),
                base.higherIsBetter());
        BenchReport.write(dir, onlyGmp4j);
        List<String> md = lines(dir.resolve("README.md"));
        assertTrue(md.contains("Only gmp4j ran: no ratios to chart."), String.join("\n", md));
        assertTrue(md.contains("| gmp4j | 100.0 | 250.0 | – | – |"), String.join("\n", md));
        assertFalse(Files.exists(dir.resolve("charts/summary.png")));
        assertPng(dir.resolve("charts/pingpong.png"));

        Path other = dir.resolve("jdk-only");
        BenchReport.write(other, new BenchReport.Run(base.args(), base.started(), base.finished(), base.settings(),
                List.of(new BenchReport.Figure("spawn", "jdk", 1, 123.456, "ms")), List.of(), List.of(), Set.of()));
        List<String> jdk = lines(other.resolve("README.md"));
        assertTrue(jdk.contains("| impl | procs 1 (ms) |"), String.join("\n", jdk));
        assertTrue(jdk.contains("| jdk | 123.5 |"), String.join("\n", jdk));
    }

    @Test
    void whenChartsCannotBeDrawnThePageSaysWhyAndKeepsTheTables(@TempDir Path dir) throws IOException {
        List<Path> written = BenchReport.write(dir, run(), (chart, file, w, h) -> {
            throw new InternalError("Probable fatal error:No fonts found.");
        });
        assertEquals(List.of(dir.resolve("README.md")), written);
        String text = Files.readString(dir.resolve("README.md"));
        assertTrue(text.contains("> **The charts could not be drawn**: java.lang.InternalError: Probable fatal error:"
                + "No fonts found.. JFreeChart draws through Java2D, which needs fonts: on Debian or Ubuntu install"
                + " them with `apt-get install fontconfig fonts-dejavu-core`"), text);
        assertTrue(text.indexOf("could not be drawn") < text.indexOf("## Machine and JVM"), text);
        assertTrue(text.contains("| jdk | 400.0 | 200.0 | 0.25 | 1.25 |"), text);
        assertEquals(3, text.split("\\(chart not drawn: see the note at the top\\)", -1).length - 1, text);
        try (var charts = Files.list(dir.resolve("charts"))) {
            assertEquals(0, charts.count(), "no chart files");
        }
    }

    @Test
    void aReportDirectoryThatCannotBeMadeFailsUpFront(@TempDir Path dir) throws IOException {
        Path file = Files.writeString(dir.resolve("a-file"), "x");
        assertThrows(IOException.class, () -> BenchReport.prepare(file.resolve("report")));
        assertThrows(IOException.class, () -> BenchReport.prepare(file));
    }

    @Test
    void figuresAndRatiosAreFormattedWithoutExponents() {
        assertEquals("123457", BenchReport.figure(123_456.7));
        assertEquals("123.5", BenchReport.figure(123.456));
        assertEquals("12.35", BenchReport.figure(12.345_6));
        assertEquals("1.235", BenchReport.figure(1.234_56));
        assertEquals("0.012", BenchReport.figure(0.012_34));
        assertEquals("12.50", BenchReport.ratio(12.5));
        assertEquals("0.10", BenchReport.ratio(0.1));
        assertEquals("0.0123", BenchReport.ratio(0.012_34));
    }
}
