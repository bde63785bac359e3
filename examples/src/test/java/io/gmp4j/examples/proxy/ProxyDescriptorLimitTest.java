package io.gmp4j.examples.proxy;

import io.gmp4j.TestSupport;
import io.gmp4j.examples.DescriptorLimitChild;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/**
 * Out of descriptors, the proxy's accept fails (EMFILE): it logs Go's accept-error line, backs
 * off and accepts again once descriptors are free. Run in a child JVM under {@code ulimit -n 256}.
 */
class ProxyDescriptorLimitTest {
    @Test
    void anAcceptFailedForWantOfDescriptorsIsLoggedAndRetried() throws Exception {
        TestSupport.ChildRun run = DescriptorLimitChild.runUnderLowLimit(ProxyDescriptorLimitMain.class);
        String out = run.output();
        assertEquals(0, run.exit(), out);
        assertTrue(out.contains("accept error logged: true"), out);
        assertTrue(out.contains("served again: all "), out);
        assertTrue(Pattern.compile("(?m)^proxy: accept error: .*too many open files; retrying in 5ms$").matcher(out).find(), out);
        assertTrue(out.contains("stopped: true"), out);
    }
}
