package io.gmp4j.bench;

import io.gmp4j.bench.ChildRunner.Failure;

import java.io.File;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The Go side of the comparison: {@code benchmarks/go} built with the {@code go} binary on PATH
 * into {@code benchmarks/go/bin/gmp4jbench}, the program impl {@code go} runs. Without a
 * {@code go} binary or the sources there is no Go binary and a note says why; a failed build is
 * a failure of the run.
 */
final class GoBinary {
    private GoBinary() {
    }

    /**
     * Builds benchmarks/go into benchmarks/go/bin/gmp4jbench; null (with a note) when impossible,
     * and when the build fails, which is added to {@code failures}.
     */
    static Path build(List<Failure> failures) {
        Path go = findOnPath("go");
        if (go == null) {
            BenchMain.note("no `go` binary on PATH: skipping the go implementation (install Go 1.19+ to compare with Go)");
            return null;
        }
        Path dir = goDir();
        if (dir == null) {
            BenchMain.note("cannot find benchmarks/go (set -Dgmp4j.bench.goDir): skipping the go implementation");
            return null;
        }
        Path bin = dir.resolve("bin").resolve("gmp4jbench");
        List<String> cmd = List.of(go.toString(), "build", "-o", bin.toString(), ".");
        System.err.println("gmp4j bench: building the Go benchmark: (cd " + dir + " && " + String.join(" ", cmd) + ")");
        try {
            Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true).start();
            p.getOutputStream().close();
            Deque<String> out = new ArrayDeque<>();
            Thread t = ChildRunner.pump(p.getInputStream(), l -> ChildRunner.keep(out, l));
            if (!p.waitFor(300, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                BenchMain.note("`go build` did not finish in 300 s: skipping the go implementation");
                return null;
            }
            t.join(5_000);
            if (p.exitValue() != 0) {
                failures.add(new Failure("build", "go", 0, "go build failed with status " + p.exitValue()));
                System.err.println("gmp4j bench: FAILED `go build` (status " + p.exitValue() + "), skipping go:");
                synchronized (out) {
                    out.forEach(l -> System.err.println("    " + l));
                }
                return null;
            }
        } catch (IOException e) {
            BenchMain.note("cannot run `go build`: " + e.getMessage() + ": skipping the go implementation");
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
        return bin;
    }

    private static Path findOnPath(String name) {
        String path = System.getenv("PATH");
        if (path == null) {
            return null;
        }
        for (String d : path.split(File.pathSeparator)) {
            if (d.isEmpty()) {
                continue;
            }
            Path p = Path.of(d, name);
            if (Files.isRegularFile(p) && Files.isExecutable(p)) {
                return p;
            }
        }
        return null;
    }

    /** benchmarks/go: -Dgmp4j.bench.goDir, else next to target/classes, else from the working dir. */
    private static Path goDir() {
        List<Path> candidates = new ArrayList<>();
        String prop = System.getProperty("gmp4j.bench.goDir");
        if (prop != null) {
            candidates.add(Path.of(prop));
        }
        try {
            Path classes = Path.of(GoBinary.class.getProtectionDomain().getCodeSource().getLocation().toURI());
            // benchmarks/target/classes or benchmarks/target/<jar>: both have target as parent
            Path target = classes.getParent();
            if (target != null && target.getParent() != null) {
                candidates.add(target.getParent().resolve("go"));
            }
        } catch (URISyntaxException | RuntimeException ignored) {
            // fall back to the working directory
        }
        candidates.add(Path.of("benchmarks", "go"));
        candidates.add(Path.of("go"));
        for (Path c : candidates) {
            if (Files.isRegularFile(c.resolve("go.mod"))) {
                return c.toAbsolutePath().normalize();
            }
        }
        return null;
    }
}
