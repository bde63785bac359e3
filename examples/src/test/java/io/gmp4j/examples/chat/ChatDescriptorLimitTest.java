package io.gmp4j.examples.chat;

import io.gmp4j.DescriptorLimitChild;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Out of descriptors, the chat server's accept fails (EMFILE): it logs the error, backs off
 * and accepts again once descriptors are free, as Go's servers do, instead of leaving new
 * clients in the backlog forever. Run in a child JVM under {@code ulimit -n 256}.
 */
class ChatDescriptorLimitTest {
    @Test
    void anAcceptFailedForWantOfDescriptorsIsLoggedAndRetriedUntilClientsAreServedAgain() throws Exception {
        String out = DescriptorLimitChild.assertAcceptRetried(ChatDescriptorLimitMain.class, "chat");
        assertTrue(out.contains("stopped: true"), out);
    }
}
