package io.gmp4j.examples.pipeline;

import io.gmp4j.Go;
import java.nio.file.Path;
import java.util.Map;

/**
 * {@code ./gmp4j run pipeline [--n N] [--workers W] [--dir PATH] [--parallel P]}: Go's pipeline
 * patterns. Sums squares through a fan-out/fan-in pipeline, stops a pipeline early and shows
 * every goroutine gone, then digests a directory tree with bounded parallelism.
 */
public final class PipelineDemo {
    private PipelineDemo() {
    }

    public static void main(String[] args) {
        int n = 100_000;
        int workers = 4;
        int parallel = 8;
        Path dir = Path.of(".");
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--n" -> n = Integer.parseInt(args[++i]);
                case "--workers" -> workers = Integer.parseInt(args[++i]);
                case "--parallel" -> parallel = Integer.parseInt(args[++i]);
                case "--dir" -> dir = Path.of(args[++i]);
                default -> {
                    System.err.println("pipeline: unknown flag " + args[i]
                            + "\nusage: ./gmp4j run pipeline [--n N] [--workers W] [--dir PATH] [--parallel P]");
                    System.exit(2);
                }
            }
        }
        int fn = n;
        int fw = workers;
        int fp = parallel;
        Path fd = dir;
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
                        sums.size(), fd.toAbsolutePath().normalize(), fp, (System.nanoTime() - t1) / 1e6);
                sums.entrySet().stream().limit(5).forEach(e -> System.out.println("  " + e.getValue() + "  " + e.getKey()));
            } catch (java.io.IOException e) {
                System.err.println("digest failed: " + e);
            }
        });
    }
}
