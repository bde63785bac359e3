package io.gmp4j.examples.pipeline;

import io.gmp4j.GoRuntime;
import io.gmp4j.NoUncaughtExceptions;
import io.gmp4j.TestSupport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The pipeline example computes what a sequential loop computes, and a cancelled pipeline
 * leaves no goroutine behind.
 */
@ExtendWith(NoUncaughtExceptions.class)
class PipelineTest {
    @ParameterizedTest
    @ValueSource(ints = {1, 2})
    void fanOutFanInEqualsTheSequentialSum(int procs) {
        int n = TestSupport.stress(100_000, 20_000);
        long expect = 0;
        for (long i = 1; i <= n; i++) {
            expect += i * i;
        }
        long want = expect;
        try (GoRuntime rt = GoRuntime.builder().maxProcs(procs).name("pipeline-sum").build()) {
            TestSupport.runInGoroutine(rt, () -> assertEquals(want, Squares.sumOfSquares(n, 4)));
        }
    }

    @Test
    void cancellingStopsEveryStage() {
        try (GoRuntime rt = GoRuntime.builder().maxProcs(2).name("pipeline-cancel").build()) {
            TestSupport.runInGoroutine(rt, () -> {
                long before = rt.numGoroutine();
                long[] got = Squares.firstThenCancel(10, 4);
                assertEquals(10, got.length);
                for (long v : got) {
                    long root = Math.round(Math.sqrt(v));
                    assertEquals(v, root * root, "a square");
                }
                TestSupport.awaitCondition(() -> rt.numGoroutine() == before,
                        () -> rt.numGoroutine() + " goroutines, " + before + " before:\n" + rt.dump());
            });
        }
    }

    @Test
    void digestsEqualASequentialSha256(@TempDir Path dir) throws Exception {
        Random rnd = new Random(42);
        Map<Path, String> expect = new TreeMap<>();
        int files = TestSupport.stress(60, 20);
        for (int i = 0; i < files; i++) {
            Path sub = dir.resolve("d" + (i % 5));
            Files.createDirectories(sub);
            byte[] data = new byte[rnd.nextInt(200_000)];
            rnd.nextBytes(data);
            Path f = sub.resolve("f" + i);
            Files.write(f, data);
            expect.put(f, HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(data)));
        }
        try (GoRuntime rt = GoRuntime.builder().maxProcs(2).name("pipeline-digest").build()) {
            TestSupport.runInGoroutine(rt, () -> assertEquals(expect, DigestAll.digestAll(dir, 4, null)));
        }
    }
}
