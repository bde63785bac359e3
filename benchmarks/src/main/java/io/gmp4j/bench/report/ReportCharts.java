package io.gmp4j.bench.report;

import org.jfree.chart.ChartFactory;
import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.CategoryLabelPositions;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.labels.StandardCategoryItemLabelGenerator;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.data.category.DefaultCategoryDataset;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Path;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.util.List;
import java.util.Locale;

/**
 * The report's charts, drawn by JFreeChart: per benchmark, grouped bars (one group per
 * implementation, one bar per procs value); and a summary of gmp4j's advantage over each
 * implementation across the benchmarks, on a log scale with a line at 1.
 */
final class ReportCharts {

    /** A chart and the size of its image in pixels. */
    record Chart(JFreeChart chart, int width, int height) {
    }

    private static final Color GRID = new Color(0xC8C8C8);

    private ReportCharts() {
    }

    /**
     * Makes Java2D draw without a display (set before the first chart; a property given on the
     * command line wins). Images need no display, only fonts.
     */
    static void headless() {
        if (System.getProperty("java.awt.headless") == null) {
            System.setProperty("java.awt.headless", "true");
        }
    }

    /** Writes {@code chart} as a PNG file of {@code width} x {@code height} pixels. */
    static void savePng(JFreeChart chart, Path file, int width, int height) throws IOException {
        ChartUtils.saveChartAsPNG(file.toFile(), chart, width, height);
    }

    /** One benchmark's figures: a group of bars per implementation, a bar per procs value. */
    static Chart bench(BenchReport.Section s) {
        DefaultCategoryDataset data = new DefaultCategoryDataset();
        for (String impl : s.impls()) {
            for (int p : s.procs()) {
                data.addValue(s.value(impl, p), "procs " + p, impl);
            }
        }
        String axis = s.unit() + (s.higherIsBetter() ? " (higher is better)" : " (lower is better)");
        JFreeChart chart = ChartFactory.createBarChart(s.title(), "implementation", axis, data,
                PlotOrientation.VERTICAL, true, false, false);
        BarRenderer bars = style(chart);
        double most = s.impls().stream().flatMap(i -> s.procs().stream().map(p -> s.value(i, p)))
                .filter(java.util.Objects::nonNull).mapToDouble(Math::abs).max().orElse(0);
        String digits = most >= 1000 ? "#,##0" : most >= 100 ? "0.0" : most >= 10 ? "0.00" : "0.000";
        bars.setDefaultItemLabelGenerator(new StandardCategoryItemLabelGenerator("{2}", format(digits)));
        bars.setDefaultItemLabelsVisible(true);
        int width = Math.clamp(240L + 90L * s.impls().size() * s.procs().size(), 640, 1600);
        return new Chart(chart, width, 420);
    }

    /**
     * gmp4j's advantage ({@link BenchReport.Section#advantage}) over every other implementation,
     * a group of bars per benchmark, a bar per (implementation, procs), rising from 1 on a log
     * scale: up where gmp4j is better, down where it is worse. Null when there is no ratio.
     */
    static Chart summary(List<BenchReport.Section> sections) {
        DefaultCategoryDataset data = new DefaultCategoryDataset();
        for (BenchReport.Section s : sections) {
            for (String impl : s.impls()) {
                for (int p : s.procs()) {
                    Double a = impl.equals("gmp4j") ? null : s.advantage(impl, p);
                    if (a != null && a > 0 && !a.isInfinite()) {
                        data.addValue(a, "vs " + impl + ", procs " + p, s.title());
                    }
                }
            }
        }
        int series = data.getRowCount();
        if (data.getColumnCount() == 0) {
            return null;
        }
        JFreeChart chart = ChartFactory.createBarChart("gmp4j's advantage (above 1: gmp4j is better)",
                "benchmark", null, data, PlotOrientation.VERTICAL, true, false, false);
        BarRenderer bars = style(chart);
        bars.setBase(1.0);
        bars.setDefaultItemLabelGenerator(new StandardCategoryItemLabelGenerator("{2}", format("0.00")));
        bars.setDefaultItemLabelsVisible(true);
        CategoryPlot plot = chart.getCategoryPlot();
        LogAxis log = new LogAxis("impl/gmp4j for times, gmp4j/impl for throughputs (log scale)");
        log.setBase(10);
        log.setNumberFormatOverride(format("0.##"));
        log.setSmallestValue(1e-6);
        plot.setRangeAxis(log);
        ValueMarker one = new ValueMarker(1.0, Color.BLACK, new BasicStroke(1.5f));
        plot.addRangeMarker(one);
        int columns = data.getColumnCount();
        if (columns > 6) {
            plot.getDomainAxis().setCategoryLabelPositions(CategoryLabelPositions.UP_45);
        }
        int width = Math.clamp(240L + 28L * columns * Math.max(series, 1), 800, 2400);
        return new Chart(chart, width, 520);
    }

    /** White plot, grey grid lines, flat bars without shadows; returns the renderer. */
    private static BarRenderer style(JFreeChart chart) {
        chart.setBackgroundPaint(Color.WHITE);
        CategoryPlot plot = chart.getCategoryPlot();
        plot.setBackgroundPaint(Color.WHITE);
        plot.setRangeGridlinePaint(GRID);
        plot.setRangeGridlinesVisible(true);
        CategoryAxis domain = plot.getDomainAxis();
        domain.setCategoryMargin(0.2);
        BarRenderer bars = (BarRenderer) plot.getRenderer();
        bars.setBarPainter(new StandardBarPainter());
        bars.setShadowVisible(false);
        bars.setItemMargin(0.05);
        return bars;
    }

    private static DecimalFormat format(String pattern) {
        return new DecimalFormat(pattern, DecimalFormatSymbols.getInstance(Locale.ROOT));
    }
}
