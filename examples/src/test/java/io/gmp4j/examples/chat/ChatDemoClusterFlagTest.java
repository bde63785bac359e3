package io.gmp4j.examples.chat;

import io.gmp4j.TestSupport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The chat demo's {@code --cluster} flag: parsed, and a bad cluster setting is a clear error. */
class ChatDemoClusterFlagTest {
    @Test
    void theClusterFlagTakesNoValue() {
        assertFalse(ChatDemo.parse().cluster(), "off by default");
        ChatDemo.Options o = ChatDemo.parse("--cluster", "--port", "7001");
        assertTrue(o.cluster());
        assertEquals(7001, o.port());
        assertTrue(ChatDemo.parse("--port", "7002", "--cluster").cluster());
    }

    /** The real program: a port property that is no number stops it with the setting named, exit status 1. */
    @Test
    void aBadClusterPropertyExitsWithStatus1() throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElseThrow());
        cmd.addAll(TestSupport.GMP4J_JVM_FLAGS);
        cmd.addAll(List.of("-Dgmp4j.cluster.port=many", "-cp", System.getProperty("java.class.path"),
                ChatDemo.class.getName(), "--port", "0", "--cluster"));
        Process p = new ProcessBuilder(cmd).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(TestSupport.TIMEOUT_S, TimeUnit.SECONDS), "the demo exited");
        assertEquals(1, p.exitValue(), err);
        assertTrue(err.contains("chat: gmp4j.cluster.port: not a port number: 'many'"), err);
    }
}
