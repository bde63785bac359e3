package io.gmp4j.examples.chat;

import io.gmp4j.TestSupport;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Out of descriptors, the chat server's accept fails (EMFILE): it logs the error, backs off
 * and accepts again once descriptors are free, as Go's servers do, instead of leaving new
 * clients in the backlog forever. Run in a child JVM under {@code ulimit -n 256}.
 */
class ChatDescriptorLimitTest {
    /** The launcher that lowers the child's descriptor limit before it starts java. */
    static final List<String> LOW_FD_LIMIT = List.of("bash", "-c", "ulimit -n 256 && exec \"$0\" \"$@\"");

    /** This JVM's flags (the runtime's --add-opens among them), without agents, and a small heap. */
    static List<String> jvmFlags() {
        List<String> flags = new ArrayList<>();
        for (String a : ManagementFactory.getRuntimeMXBean().getInputArguments()) {
            if (!a.startsWith("-javaagent") && !a.startsWith("-agentlib") && !a.startsWith("-Xmx")) {
                flags.add(a);
            }
        }
        flags.add("-Xmx256m");
        return flags;
    }

    @Test
    void anAcceptFailedForWantOfDescriptorsIsLoggedAndRetriedUntilClientsAreServedAgain() throws Exception {
        TestSupport.ChildRun run = TestSupport.runChildJvm(LOW_FD_LIMIT, jvmFlags(), ChatDescriptorLimitMain.class);
        String out = run.output();
        assertEquals(0, run.exit(), out);
        assertTrue(out.contains("accept error logged: true"), out);
        assertTrue(out.contains("served again: all "), out);
        assertTrue(Pattern.compile("(?m)^chat: accept error: .*Too many open files; retrying in 5ms$").matcher(out).find(), out);
        assertTrue(out.contains("stopped: true"), out);
    }
}
