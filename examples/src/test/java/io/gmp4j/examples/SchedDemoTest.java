package io.gmp4j.examples;

import io.gmp4j.TestSupport;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/** {@code ./gmp4j run sched}'s flags: bad values are one-line errors and exit status 2. */
class SchedDemoTest {
    @Test
    void flagsParse() {
        assertEquals(new SchedDemo.Options(3, 0), SchedDemo.parse("--procs", "3", "--trace-ms", "0"));
        assertEquals(Runtime.getRuntime().availableProcessors(), SchedDemo.parse().procs());
    }

    @Test
    void badFlagsAreClearErrors() {
        assertEquals("--procs abc: not a number", error("--procs", "abc"));
        assertEquals("--procs 0: must be at least 1", error("--procs", "0"));
        assertEquals("--trace-ms -5: must be 0 (off) or more", error("--trace-ms", "-5"));
        assertEquals("--procs needs a value", error("--procs"));
        assertEquals("unknown flag --bogus", error("--bogus"));
    }

    /** The real program through the dispatcher: the error and the usage on stderr, status 2, no stack trace. */
    @Test
    void aBadValueExitsWithStatus2() throws Exception {
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElseThrow());
        for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (!a.startsWith("-javaagent") && !a.startsWith("-agentlib")) {
                cmd.add(a);
            }
        }
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), Examples.class.getName(), "sched", "--procs", "abc"));
        Process p = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(TestSupport.TIMEOUT_S, TimeUnit.SECONDS), "the demo exited");
        assertEquals(2, p.exitValue(), err);
        assertEquals("sched: --procs abc: not a number\n" + SchedDemo.USAGE + "\n", err);
    }

    private static String error(String... args) {
        return assertThrows(IllegalArgumentException.class, () -> SchedDemo.parse(args)).getMessage();
    }
}
