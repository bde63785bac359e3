package io.gmp4j.bench.net;

import io.gmp4j.DescriptorLimitChild;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Out of descriptors, the benchmarks' gmp4j and JDK echo servers log the failed accept, back
 * off and accept again once descriptors are free, instead of ending their accept loop. Each
 * runs in a child JVM under {@code ulimit -n 256}.
 */
class EchoDescriptorLimitTest {
    @ParameterizedTest
    @ValueSource(strings = {"gmp4j", "jdk"})
    void anAcceptFailedForWantOfDescriptorsIsLoggedAndRetried(String impl) throws Exception {
        String prefix = impl.equals("jdk") ? "jdk-echo" : "echo";
        DescriptorLimitChild.assertAcceptRetried(EchoDescriptorLimitMain.class, prefix, "-Decho.impl=" + impl);
    }
}
