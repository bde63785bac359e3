package io.gmp4j.bench.report;

import io.gmp4j.bench.MachineProbe;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The benchmark report of one {@code ./gmp4j bench ... --report DIR} run: {@code DIR/README.md},
 * a Markdown page with the command, the time, the JVM and host, the machine probe's readings,
 * and per benchmark a table (rows: implementations; columns: the figure at each procs value,
 * then gmp4j's ratio to the row's implementation, gmp4j/impl, at each procs value) and a chart
 * of grouped bars; plus one summary chart of gmp4j against every implementation
 * ({@link ReportCharts}). The charts are PNG files under {@code DIR/charts/}, linked relatively.
 * When the charts cannot be drawn (a JDK without fonts) the page is still written and says why.
 */
public final class BenchReport {

    /** The page's file name in the report directory. */
    public static final String PAGE = "README.md";
    /** The charts' directory, relative to the report directory. */
    public static final String CHARTS = "charts";

    /** One figure: a benchmark's median for one implementation at one procs value. */
    public record Figure(String bench, String impl, int procs, double value, String unit) {
    }

    /** A machine probe reading and when it was taken ("start" or "end"). */
    public record Probe(String when, MachineProbe.Reading reading) {
    }

    /**
     * Everything a report shows.
     *
     * @param args           the arguments the harness got (the command line after {@code ./gmp4j bench})
     * @param started        when the run began
     * @param finished       when it ended
     * @param settings       the harness's settings to show, in order (child java, JVM flags, ...)
     * @param figures        the results, in the order they came
     * @param probes         the machine readings, in order
     * @param failures       one line per run that produced no figures
     * @param higherIsBetter the units whose larger figures are better (req/s, MB/s, lines/s);
     *                       every other unit is a time or a cost, where lower is better
     */
    public record Run(List<String> args, Instant started, Instant finished, Map<String, String> settings,
                      List<Figure> figures, List<Probe> probes, List<String> failures, Set<String> higherIsBetter) {
        /** Copies the lists and keeps the settings' order. */
        public Run {
            args = List.copyOf(args);
            settings = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(settings));
            figures = List.copyOf(figures);
            probes = List.copyOf(probes);
            failures = List.copyOf(failures);
            higherIsBetter = Set.copyOf(higherIsBetter);
        }
    }

    /**
     * Saves one chart as a PNG file; {@link ReportCharts#savePng} in production, a stand-in in
     * tests of what the page says when drawing fails.
     */
    @FunctionalInterface
    interface ChartSink {
        void save(org.jfree.chart.JFreeChart chart, Path file, int width, int height) throws IOException;
    }

    private static final DateTimeFormatter UTC = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'", Locale.ROOT)
            .withZone(ZoneOffset.UTC);

    private BenchReport() {
    }

    /**
     * Creates {@code dir} (and its parents) and checks that a file can be written there, so that
     * a run of many minutes does not end with nowhere to put its report.
     *
     * @throws IOException when the directory cannot be made or written to
     */
    public static void prepare(Path dir) throws IOException {
        Files.createDirectories(dir.resolve(CHARTS));
        Path probe = Files.createTempFile(dir, ".gmp4j-report", ".tmp");
        Files.delete(probe);
    }

    /**
     * Writes the page and its charts into {@code dir}.
     *
     * @return the files written, the page first
     * @throws IOException when the page cannot be written (a chart that cannot be drawn is
     *                     reported on the page instead)
     */
    public static List<Path> write(Path dir, Run run) throws IOException {
        return write(dir, run, ReportCharts::savePng);
    }

    static List<Path> write(Path dir, Run run, ChartSink sink) throws IOException {
        prepare(dir);
        List<Section> sections = Section.of(run.figures(), run.higherIsBetter());
        List<Path> written = new ArrayList<>();
        Drawing drawing = new Drawing(dir, sink, written);
        StringBuilder md = new StringBuilder();
        header(md, run);
        String summary = sections.isEmpty() ? "" : drawing.draw(() -> ReportCharts.summary(sections), "summary.png");
        body(md, run, sections, summary, drawing);
        if (drawing.failure != null) {
            md.insert(md.indexOf("\n## "), "\n> **The charts could not be drawn**: " + drawing.failure
                    + ". JFreeChart draws through Java2D, which needs fonts: on Debian or Ubuntu install them with"
                    + " `apt-get install fontconfig fonts-dejavu-core` (and `libfreetype6` for a JDK that does not"
                    + " bundle FreeType), then run again. The tables below hold every figure.\n");
        }
        Path page = dir.resolve(PAGE);
        Files.writeString(page, md, StandardCharsets.UTF_8);
        written.addFirst(page);
        return written;
    }

    private static void header(StringBuilder md, Run run) {
        md.append("# gmp4j benchmark report\n\n");
        md.append("Command: `./gmp4j bench");
        for (String a : run.args()) {
            md.append(' ').append(shellWord(a));
        }
        md.append("` (BenchMain's arguments; `./gmp4j bench` passes its own on unchanged)\n\n");
        long seconds = Duration.between(run.started(), run.finished()).toSeconds();
        md.append("Run from ").append(UTC.format(run.started())).append(" to ").append(UTC.format(run.finished()))
                .append(String.format(Locale.ROOT, " (%d min %02d s).%n%n", seconds / 60, seconds % 60));
        md.append("## Machine and JVM\n\n| | |\n|---|---|\n");
        Map<String, String> facts = new LinkedHashMap<>();
        facts.put("harness JVM", System.getProperty("java.version") + " (" + System.getProperty("java.vm.name") + " "
                + System.getProperty("java.vm.version") + ", " + System.getProperty("java.vm.vendor") + ")");
        facts.putAll(run.settings());
        facts.put("CPUs the JVM sees", Integer.toString(Runtime.getRuntime().availableProcessors()));
        String model = cpuModel();
        if (model != null) {
            facts.put("CPU model", model);
        }
        facts.put("OS", System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
                + System.getProperty("os.arch"));
        facts.forEach((k, v) -> md.append("| ").append(k).append(" | ").append(cell(v.isEmpty() ? "(none)" : v))
                .append(" |\n"));
        md.append('\n');
        if (!run.probes().isEmpty()) {
            md.append("Machine probe (`MachineProbe`, before the first benchmark and after the last):\n\n");
            md.append("| when | core-to-core round trip (ns) | one dependent step (ns) | threads pinned |\n");
            md.append("|---|---|---|---|\n");
            for (Probe p : run.probes()) {
                MachineProbe.Reading r = p.reading();
                md.append("| ").append(p.when()).append(" | ")
                        .append(Double.isNaN(r.c2cNs()) ? "– (one CPU)" : String.format(Locale.ROOT, "%.0f", r.c2cNs()))
                        .append(" | ").append(String.format(Locale.ROOT, "%.2f", r.stepNs())).append(" | ")
                        .append(r.pinned() ? "yes" : "no").append(" |\n");
            }
            md.append('\n');
            if (run.probes().size() > 1 && MachineProbe.changed(run.probes().getFirst().reading(),
                    run.probes().getLast().reading())) {
                md.append("**The machine changed during this run** (a reading moved 1.5x or more): figures taken"
                        + " before and after the change are not comparable.\n\n");
            }
        }
    }

    private static void body(StringBuilder md, Run run, List<Section> sections, String summary, Drawing drawing) {
        md.append("## Summary\n\n");
        if (sections.isEmpty()) {
            md.append("No benchmark produced a figure.\n\n");
        } else if (summary != null && summary.isEmpty()) {
            md.append("Only gmp4j ran: no ratios to chart.\n\n");
        } else {
            md.append(image("gmp4j against each implementation", summary));
            md.append("Each bar is gmp4j's advantage over one implementation at one procs value, oriented so that"
                    + " above 1 means gmp4j is better: impl/gmp4j for times and costs, gmp4j/impl for throughputs"
                    + " (the console's ratio lines). Log scale; the tables below give gmp4j/impl as measured.\n\n");
        }
        glance(md, sections);
        for (Section s : sections) {
            md.append("## ").append(s.title()).append("\n\n");
            md.append("Unit ").append(s.unit()).append(": ").append(s.higherIsBetter()
                    ? "higher is better, so gmp4j/impl above 1 means gmp4j is better."
                    : "lower is better, so gmp4j/impl below 1 means gmp4j is better.").append("\n\n");
            md.append("| impl |");
            for (int p : s.procs()) {
                md.append(" procs ").append(p).append(" (").append(s.unit()).append(") |");
            }
            if (s.hasGmp4j()) {
                for (int p : s.procs()) {
                    md.append(" gmp4j/impl procs ").append(p).append(" |");
                }
            }
            md.append("\n|---|");
            int cols = s.procs().size() * (s.hasGmp4j() ? 2 : 1);
            md.append("---:|".repeat(cols)).append('\n');
            for (String impl : s.impls()) {
                md.append("| ").append(impl).append(" |");
                for (int p : s.procs()) {
                    Double v = s.value(impl, p);
                    md.append(' ').append(v == null ? "–" : figure(v)).append(" |");
                }
                if (s.hasGmp4j()) {
                    for (int p : s.procs()) {
                        Double r = impl.equals("gmp4j") ? null : s.ratio(impl, p);
                        md.append(' ').append(r == null ? "–" : ratio(r)).append(" |");
                    }
                }
                md.append('\n');
            }
            md.append('\n');
            String file = drawing.draw(() -> ReportCharts.bench(s), s.fileName());
            md.append(image(s.title(), file));
        }
        if (!run.failures().isEmpty()) {
            md.append("## Failures\n\n");
            for (String f : run.failures()) {
                md.append("- ").append(cell(f)).append('\n');
            }
            md.append('\n');
        }
    }

    /**
     * One table of every ratio, for a page that has room for one (the project's README takes it
     * as it is): a row per benchmark figure, gmp4j's own figure and then gmp4j/impl for each
     * other implementation, each cell the values at every procs value of the run joined by " / ".
     */
    private static void glance(StringBuilder md, List<Section> sections) {
        List<Integer> procs = new ArrayList<>(new TreeSet<>(sections.stream().flatMap(s -> s.procs().stream()).toList()));
        List<String> others = new ArrayList<>();
        for (Section s : sections) {
            if (s.hasGmp4j()) {
                s.impls().stream().filter(i -> !i.equals("gmp4j") && !others.contains(i)).forEach(others::add);
            }
        }
        if (others.isEmpty()) {
            return;
        }
        String ps = procs.stream().map(String::valueOf).collect(java.util.stream.Collectors.joining(" / "));
        md.append("## At a glance\n\n");
        md.append("gmp4j's figure and gmp4j/impl at procs ").append(ps).append(" (\"–\" where one of the two has"
                + " no figure); for times and costs below 1 means gmp4j is better, for throughputs (")
                .append(sections.stream().filter(Section::higherIsBetter).map(Section::unit).distinct()
                        .collect(java.util.stream.Collectors.joining(", ")))
                .append(") above 1 does.\n\n");
        md.append("| benchmark (unit) | gmp4j |");
        others.forEach(o -> md.append(" gmp4j/").append(o).append(" |"));
        md.append("\n|---|---:|").append("---:|".repeat(others.size())).append('\n');
        for (Section s : sections) {
            if (!s.hasGmp4j()) {
                continue;
            }
            md.append("| ").append(s.bench()).append(" (").append(s.unit()).append(") | ")
                    .append(joined(procs, p -> s.value("gmp4j", p), BenchReport::figure)).append(" |");
            for (String o : others) {
                md.append(' ').append(s.values().containsKey(o) ? joined(procs, p -> s.ratio(o, p), BenchReport::ratio)
                        : "").append(" |");
            }
            md.append('\n');
        }
        md.append('\n');
    }

    /** The values at each procs value joined by " / ", "–" for a missing one. */
    private static String joined(List<Integer> procs, java.util.function.IntFunction<Double> value,
                                 java.util.function.DoubleFunction<String> format) {
        return procs.stream().map(p -> {
            Double v = value.apply(p);
            return v == null ? "–" : format.apply(v);
        }).collect(java.util.stream.Collectors.joining(" / "));
    }

    private static String image(String alt, String file) {
        return file == null ? "(chart not drawn: see the note at the top)\n\n" : "![" + alt + "](" + file + ")\n\n";
    }

    /** Draws the charts into {@code charts/} until one fails; then records why and draws no more. */
    private static final class Drawing {
        private final Path dir;
        private final ChartSink sink;
        private final List<Path> written;
        String failure;

        Drawing(Path dir, ChartSink sink, List<Path> written) {
            this.dir = dir;
            this.sink = sink;
            this.written = written;
        }

        /**
         * The chart's link relative to the page, "" when {@code chart} made no chart (nothing to
         * draw), or null when it could not be drawn.
         */
        String draw(java.util.function.Supplier<ReportCharts.Chart> chart, String name) {
            if (failure != null) {
                return null;
            }
            try {
                ReportCharts.headless();
                ReportCharts.Chart c = chart.get();
                if (c == null) {
                    return "";
                }
                Path file = dir.resolve(CHARTS).resolve(name);
                sink.save(c.chart(), file, c.width(), c.height());
                written.add(file);
                return CHARTS + "/" + name;
            } catch (IOException | RuntimeException | Error e) {
                if (e instanceof VirtualMachineError && !(e instanceof InternalError)) {
                    throw (VirtualMachineError) e; // out of memory: not a drawing problem
                }
                failure = e.getClass().getName() + (e.getMessage() == null ? "" : ": " + e.getMessage());
                return null;
            }
        }
    }

    /** A figure for the tables: 4 significant digits at most, never exponents. */
    static String figure(double v) {
        double a = Math.abs(v);
        if (a >= 1000) {
            return String.format(Locale.ROOT, "%.0f", v);
        }
        if (a >= 100) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        if (a >= 10) {
            return String.format(Locale.ROOT, "%.2f", v);
        }
        return String.format(Locale.ROOT, "%.3f", v);
    }

    /** A ratio: two decimals, three significant digits below 0.1. */
    static String ratio(double r) {
        return r >= 0.1 ? String.format(Locale.ROOT, "%.2f", r) : String.format(Locale.ROOT, "%.3g", r);
    }

    /** A Markdown table cell's text: pipes escaped, on one line. */
    private static String cell(String s) {
        return s.replace("|", "\\|").replace('\n', ' ');
    }

    /** A word as a shell would need it quoted to mean the same. */
    private static String shellWord(String a) {
        return a.matches("[A-Za-z0-9_./,=:+@%-]+") ? a : "'" + a.replace("'", "'\\''") + "'";
    }

    /** The first "model name" of /proc/cpuinfo, or null where there is none. */
    private static String cpuModel() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"), StandardCharsets.UTF_8)) {
                if (line.startsWith("model name")) {
                    int colon = line.indexOf(':');
                    return colon < 0 ? null : line.substring(colon + 1).trim();
                }
            }
        } catch (IOException | RuntimeException e) {
            return null;
        }
        return null;
    }

    /** The figures of one benchmark (and unit), rows of implementations, columns of procs. */
    record Section(String title, String bench, String unit, boolean higherIsBetter, List<String> impls,
                   List<Integer> procs, Map<String, Map<Integer, Double>> values) {

        /** Groups {@code figures} by (bench, unit) in the order they came; gmp4j's row first. */
        static List<Section> of(List<Figure> figures, Set<String> higherIsBetter) {
            Map<List<String>, List<Figure>> groups = new LinkedHashMap<>();
            Map<String, Set<String>> unitsOf = new LinkedHashMap<>();
            for (Figure f : figures) {
                groups.computeIfAbsent(List.of(f.bench(), f.unit()), k -> new ArrayList<>()).add(f);
                unitsOf.computeIfAbsent(f.bench(), k -> new TreeSet<>()).add(f.unit());
            }
            List<Section> out = new ArrayList<>();
            for (List<Figure> g : groups.values()) {
                Figure first = g.getFirst();
                List<String> impls = new ArrayList<>();
                Set<Integer> procs = new TreeSet<>();
                Map<String, Map<Integer, Double>> values = new LinkedHashMap<>();
                if (g.stream().anyMatch(f -> f.impl().equals("gmp4j"))) {
                    impls.add("gmp4j");
                }
                for (Figure f : g) {
                    if (!impls.contains(f.impl())) {
                        impls.add(f.impl());
                    }
                    procs.add(f.procs());
                    values.computeIfAbsent(f.impl(), k -> new LinkedHashMap<>()).put(f.procs(), f.value());
                }
                boolean several = unitsOf.get(first.bench()).size() > 1;
                String title = several ? first.bench() + " (" + first.unit() + ")" : first.bench();
                out.add(new Section(title, first.bench(), first.unit(), higherIsBetter.contains(first.unit()),
                        List.copyOf(impls), List.copyOf(procs), values));
            }
            return out;
        }

        Double value(String impl, int procs) {
            Map<Integer, Double> m = values.get(impl);
            return m == null ? null : m.get(procs);
        }

        boolean hasGmp4j() {
            return values.containsKey("gmp4j");
        }

        /** gmp4j's figure over {@code impl}'s at {@code procs}; null when either is missing. */
        Double ratio(String impl, int procs) {
            Double g = value("gmp4j", procs);
            Double o = value(impl, procs);
            return g == null || o == null || o == 0 ? null : g / o;
        }

        /** gmp4j's advantage over {@code impl}: above 1 means gmp4j is better, whatever the unit. */
        Double advantage(String impl, int procs) {
            Double r = ratio(impl, procs);
            return r == null || r == 0 ? null : higherIsBetter ? r : 1 / r;
        }

        /** The chart's file name: the title with anything but letters, digits, '.', '-' as '_'. */
        String fileName() {
            return title.replaceAll("[^A-Za-z0-9.-]+", "_").replaceAll("_+$", "") + ".png";
        }
    }
}
