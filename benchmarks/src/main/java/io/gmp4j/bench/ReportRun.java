package io.gmp4j.bench;

import io.gmp4j.bench.report.BenchReport;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code --report DIR}: hands what {@link BenchMain} collected to {@link BenchReport} and says
 * on stderr what it wrote (absolute paths) or why it could not.
 */
final class ReportRun {

    private ReportRun() {
    }

    /**
     * Makes the report directory before the first benchmark runs.
     *
     * @return false (with the reason on stderr) when it cannot be made or written to
     */
    static boolean prepare(Path dir) {
        try {
            BenchReport.prepare(dir);
            return true;
        } catch (IOException | RuntimeException e) {
            System.err.println("gmp4j bench: --report " + dir + ": cannot write there: " + e);
            return false;
        }
    }

    /**
     * Writes the report of a finished run.
     *
     * @return false (with the reason on stderr) when the page could not be written
     */
    static boolean write(Path dir, BenchOptions opt, Instant started, String java, List<String> jvmFlags,
                         List<String> childFlags, List<ChildRunner.Result> results, List<ChildRunner.Failure> failures,
                         List<Map.Entry<String, MachineProbe.Reading>> probes) {
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("child java", java);
        settings.put("child JVM flags", String.join(" ", jvmFlags) + " " + String.join(" ", BenchMain.CHILD_JVM_FLAGS));
        settings.put("extra child flags", String.join(" ", childFlags));
        settings.put("repetitions", (opt.quick ? "--quick, " : "") + "rounds " + opt.rounds
                + (opt.pin ? ", gmp4j carriers pinned (--pin)" : ""));
        BenchReport.Run run = new BenchReport.Run(opt.args, started, Instant.now(), settings,
                results.stream().map(r -> new BenchReport.Figure(r.bench(), r.impl(), r.procs(), r.value(), r.unit()))
                        .toList(),
                probes.stream().map(p -> new BenchReport.Probe(p.getKey(), p.getValue())).toList(),
                failures.stream().map(f -> f.bench() + " impl=" + f.impl() + " procs=" + f.procs() + ": " + f.message())
                        .toList(),
                BenchMain.HIGHER_IS_BETTER);
        try {
            List<Path> written = BenchReport.write(dir, run);
            System.err.println("gmp4j bench: report written:");
            written.forEach(p -> System.err.println("  " + p.toAbsolutePath()));
            if (written.size() == 1 && !results.isEmpty()) {
                System.err.println("gmp4j bench: note: the charts could not be drawn; the page says why");
            }
            return true;
        } catch (IOException | RuntimeException e) {
            System.err.println("gmp4j bench: --report " + dir + ": the report could not be written: " + e);
            return false;
        }
    }
}
