package io.gmp4j.examples.pipeline;

import io.gmp4j.Go;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * {@code ./gmp4j run pipeline [--n N] [--workers W] [--dir PATH] [--parallel P]}: Go's pipeline
 * patterns. Sums squares through a fan-out/fan-in pipeline, stops a pipeline early and shows
 * every goroutine gone, then digests a directory tree with bounded parallelism ({@code --dir},
 * the working directory by default; a relative path is resolved against it, and the header
 * line shows the absolute path).
 */
public final class PipelineDemo {
    private PipelineDemo() {
    }

    static final String USAGE = "usage: ./gmp4j run pipeline [--n N] [--workers W] [--dir PATH] [--parallel P]";

    /**
     * The parsed command line.
     *
     * @param n        the squares summed: 1..n
     * @param workers  the sq stages of the fan-out
     * @param dir      the directory tree digested, absolute: a relative one is resolved against
     *                 the process's working directory
     * @param parallel the digesters
     * @param help     {@code -h} or {@code --help}: print the usage and stop
     */
    record Options(int n, int workers, Path dir, int parallel, boolean help) {
    }

    /**
     * Parses and checks the flags; {@code --dir} must name a readable directory.
     *
     * @throws IllegalArgumentException with the one-line message for the user (no usage)
     */
    static Options parse(String... args) {
        int n = 100_000;
        int workers = 4;
        int parallel = 8;
        Path dir = Path.of("");
        for (int i = 0; i < args.length; i++) {
            String flag = args[i];
            if (flag.equals("-h") || flag.equals("--help")) {
                return new Options(n, workers, dir.toAbsolutePath(), parallel, true);
            }
            if (!flag.equals("--n") && !flag.equals("--workers") && !flag.equals("--parallel") && !flag.equals("--dir")) {
                throw new IllegalArgumentException("unknown flag " + flag);
            }
            if (i + 1 == args.length) {
                throw new IllegalArgumentException(flag + " needs a value");
            }
            String value = args[++i];
            switch (flag) {
                case "--n" -> n = positive(flag, value);
                case "--workers" -> workers = positive(flag, value);
                case "--parallel" -> parallel = positive(flag, value);
                default -> dir = directory(value);
            }
        }
        return new Options(n, workers, dir.toAbsolutePath().normalize(), parallel, false);
    }

    private static int positive(String flag, String value) {
        int v;
        try {
            v = Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(flag + " " + value + ": not a number");
        }
        if (v < 1) {
            throw new IllegalArgumentException(flag + " " + value + ": must be at least 1");
        }
        return v;
    }

    private static Path directory(String value) {
        Path p;
        try {
            p = Path.of(value).toAbsolutePath().normalize();
        } catch (java.nio.file.InvalidPathException e) {
            throw new IllegalArgumentException("--dir " + value + ": not a path (" + e.getReason() + ")");
        }
        if (!java.nio.file.Files.exists(p)) {
            throw new IllegalArgumentException("--dir " + value + ": no such directory");
        }
        if (!java.nio.file.Files.isDirectory(p)) {
            throw new IllegalArgumentException("--dir " + value + ": not a directory");
        }
        if (!java.nio.file.Files.isReadable(p) || !java.nio.file.Files.isExecutable(p)) {
            throw new IllegalArgumentException("--dir " + value + ": permission denied");
        }
        return p;
    }

    /**
     * Runs the three parts; a bad flag prints one line ({@code pipeline: --dir /nope: no such
     * directory}) and exits with status 2, a digest that fails exits with status 1.
     */
    public static void main(String[] args) {
        Options o;
        try {
            o = parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("pipeline: " + e.getMessage());
            System.exit(2);
            return;
        }
        if (o.help()) {
            System.out.println(USAGE);
            return;
        }
        int fn = o.n();
        int fw = o.workers();
        int fp = o.parallel();
        Path fd = o.dir();
        System.out.printf("pipeline: --n %d --workers %d --dir %s --parallel %d%n", fn, fw, fd, fp);
        AtomicBoolean failed = new AtomicBoolean();
        Go.main(() -> {
            for (int round = 1; round <= 3; round++) { // the first round includes JIT warm-up
                long t0 = System.nanoTime();
                long sum = Squares.sumOfSquares(fn, fw);
                System.out.printf("round %d: sum of squares 1..%d through %d sq stages: %d (%.1f ms)%n",
                        round, fn, fw, sum, (System.nanoTime() - t0) / 1e6);
            }

            long before = Go.numGoroutine();
            long[] first = Squares.firstThenCancel(5, fw);
            System.out.printf("first 5 results, then cancel: %s%n", java.util.Arrays.toString(first));
            // Cancellation is asynchronous: the stages return as they see ctx.done().
            while (Go.numGoroutine() > before) {
                Go.gosched();
            }
            System.out.printf("goroutines after cancel: %d (before: %d)%n", Go.numGoroutine(), before);

            try {
                long t1 = System.nanoTime();
                Map<Path, String> sums = DigestAll.digestAll(fd, fp,
                        (files, bytes) -> System.out.printf("  ... %d files, %d MiB%n", files, bytes >> 20));
                System.out.printf("sha256 of %d files under %s with %d digesters (%.1f ms)%n",
                        sums.size(), fd, fp, (System.nanoTime() - t1) / 1e6);
                sums.entrySet().stream().limit(5).forEach(e -> System.out.println("  " + e.getValue() + "  " + e.getKey()));
            } catch (java.io.IOException e) {
                System.err.println("pipeline: digest of " + fd + " failed: " + e.getMessage());
                failed.set(true);
            }
        });
        if (failed.get()) { // set in the main goroutine, which Go.main has waited for
            System.exit(1);
        }
    }
}
