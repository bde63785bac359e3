package io.gmp4j.examples.pipeline;

import io.gmp4j.TestSupport;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.*;

/**
 * {@code ./gmp4j run pipeline} as a user runs it, in a child JVM: a bad {@code --dir} or flag
 * value is one line and exit status 2, never a stack trace; a relative {@code --dir} is
 * resolved against the working directory, and the output names the absolute path.
 */
class PipelineDemoTest {
    @TempDir
    Path tmp;

    /** {@link PipelineDemo#main} with {@code args} in a child JVM working in {@code cwd}. */
    private static TestSupport.ChildRun run(Path cwd, String... args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElseThrow());
        for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (!a.startsWith("-javaagent") && !a.startsWith("-agentlib")) {
                cmd.add(a);
            }
        }
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), PipelineDemo.class.getName()));
        cmd.addAll(List.of(args));
        Path out = Files.createTempFile("pipeline-child", ".out");
        try {
            Process p = new ProcessBuilder(cmd).directory(cwd.toFile()).redirectErrorStream(true)
                    .redirectOutput(out.toFile()).start();
            assertTrue(p.waitFor(TestSupport.TIMEOUT_S, TimeUnit.SECONDS), "child did not finish");
            return new TestSupport.ChildRun(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(out);
        }
    }

    /** Exit status 2 and exactly {@code line} (the JVM's own warnings aside). */
    private void assertUsageError(String line, String... args) throws Exception {
        TestSupport.ChildRun r = run(tmp, args);
        List<String> lines = r.output().lines().filter(l -> !l.startsWith("WARNING:")).toList();
        assertEquals(List.of(line), lines, r.output());
        assertEquals(2, r.exit(), r.output());
    }

    @Test
    void aMissingDirectoryIsOneLineAndStatus2() throws Exception {
        assertUsageError("pipeline: --dir nope: no such directory", "--dir", "nope");
        assertUsageError("pipeline: --dir /nope/at/all: no such directory", "--dir", "/nope/at/all");
    }

    @Test
    void aFileIsNotADirectory() throws Exception {
        Files.writeString(tmp.resolve("f.txt"), "x");
        assertUsageError("pipeline: --dir f.txt: not a directory", "--dir", "f.txt");
    }

    @Test
    void badFlagValuesAreOneLineAndStatus2() throws Exception {
        assertUsageError("pipeline: --n abc: not a number", "--n", "abc");
        assertUsageError("pipeline: --parallel 0: must be at least 1", "--parallel", "0");
        assertUsageError("pipeline: --workers needs a value", "--workers");
        assertUsageError("pipeline: unknown flag --bogus", "--bogus");
    }

    @Test
    void aRelativeDirectoryIsTheOneUnderTheWorkingDirectory() throws Exception {
        Path sub = Files.createDirectories(tmp.resolve("sub"));
        Files.writeString(sub.resolve("a.txt"), "a");
        Files.writeString(sub.resolve("b.txt"), "b");
        Files.writeString(tmp.resolve("outside.txt"), "not digested");
        TestSupport.ChildRun r = run(tmp, "--dir", "sub", "--n", "1000");
        assertEquals(0, r.exit(), r.output());
        String abs = sub.toRealPath().toString();
        assertTrue(r.output().contains("pipeline: --n 1000 --workers 4 --dir " + abs + " --parallel 8\n"), r.output());
        assertTrue(r.output().contains("sha256 of 2 files under " + abs + " with 8 digesters"), r.output());
        assertFalse(r.output().contains("Exception"), r.output());
    }
}
