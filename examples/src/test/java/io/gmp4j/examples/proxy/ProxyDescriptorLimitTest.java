package io.gmp4j.examples.proxy;

import io.gmp4j.DescriptorLimitChild;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Out of descriptors, the proxy's accept fails (EMFILE): it logs Go's accept-error line, backs
 * off and accepts again once descriptors are free. Run in a child JVM under {@code ulimit -n 256}.
 */
class ProxyDescriptorLimitTest {
    @Test
    void anAcceptFailedForWantOfDescriptorsIsLoggedAndRetried() throws Exception {
        String out = DescriptorLimitChild.assertAcceptRetried(ProxyDescriptorLimitMain.class, "proxy");
        assertTrue(out.contains("stopped: true"), out);
    }
}
