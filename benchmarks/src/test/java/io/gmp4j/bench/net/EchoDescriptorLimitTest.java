package io.gmp4j.bench.net;

import io.gmp4j.TestSupport;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Out of descriptors, the benchmarks' gmp4j and JDK echo servers log the failed accept, back
 * off and accept again once descriptors are free, instead of ending their accept loop. Each
 * runs in a child JVM under {@code ulimit -n 256}.
 */
class EchoDescriptorLimitTest {
    private static final List<String> LOW_FD_LIMIT = List.of("bash", "-c", "ulimit -n 256 && exec \"$0\" \"$@\"");

    @ParameterizedTest
    @ValueSource(strings = {"gmp4j", "jdk"})
    void anAcceptFailedForWantOfDescriptorsIsLoggedAndRetried(String impl) throws Exception {
        List<String> flags = new ArrayList<>();
        for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (!a.startsWith("-javaagent") && !a.startsWith("-agentlib") && !a.startsWith("-Xmx")) {
                flags.add(a);
            }
        }
        flags.addAll(List.of("-Xmx256m", "-Decho.impl=" + impl));
        TestSupport.ChildRun run = TestSupport.runChildJvm(LOW_FD_LIMIT, flags, EchoDescriptorLimitMain.class);
        String out = run.output();
        assertEquals(0, run.exit(), out);
        assertTrue(out.contains("accept error logged: true"), out);
        assertTrue(out.contains("served again: all "), out);
        String prefix = impl.equals("jdk") ? "jdk-echo" : "echo";
        assertTrue(Pattern.compile("(?mi)^" + prefix + ": accept error: .*too many open files; retrying in 5ms$").matcher(out).find(), out);
    }
}
