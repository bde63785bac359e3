package io.gmp4j.examples.chat;

import io.gmp4j.TestSupport;
import io.gmp4j.examples.DescriptorLimitChild;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Out of descriptors, the chat server's accept fails (EMFILE): it logs the error, backs off
 * and accepts again once descriptors are free, as Go's servers do, instead of leaving new
 * clients in the backlog forever. Run in a child JVM under {@code ulimit -n 256}.
 */
class ChatDescriptorLimitTest {
    @Test
    void anAcceptFailedForWantOfDescriptorsIsLoggedAndRetriedUntilClientsAreServedAgain() throws Exception {
        TestSupport.ChildRun run = DescriptorLimitChild.runUnderLowLimit(ChatDescriptorLimitMain.class);
        String out = run.output();
        assertEquals(0, run.exit(), out);
        assertTrue(out.contains("accept error logged: true"), out);
        assertTrue(out.contains("served again: all "), out);
        assertTrue(Pattern.compile("(?m)^chat: accept error: .*too many open files; retrying in 5ms$").matcher(out).find(), out);
        assertTrue(out.contains("stopped: true"), out);
    }
}
