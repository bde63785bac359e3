package io.gmp4j.examples.chat;

import io.gmp4j.TestSupport;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/** The chat demo's command line: every flag, the defaults, and clear errors for bad input. */
class ChatDemoTest {
    @Test
    void theDefaultsDisconnectSlowClients() {
        ChatDemo.Options o = ChatDemo.parse();
        assertEquals(7000, o.port());
        assertEquals(0, o.traceMs());
        assertFalse(o.help());
        assertEquals(ChatConfig.defaults(), o.cfg());
        assertEquals(ChatConfig.SlowPolicy.DISCONNECT, o.cfg().slowPolicy());
    }

    @Test
    void everyFlagReachesTheConfig() {
        ChatDemo.Options o = ChatDemo.parse("--port", "7100", "--max-clients", "5", "--max-line", "80",
                "--idle", "30s", "--queue", "16", "--slow-policy", "drop", "--trace-ms", "250");
        assertEquals(7100, o.port());
        assertEquals(250, o.traceMs());
        assertEquals(new ChatConfig(5, 80, Duration.ofSeconds(30), 16, Duration.ofSeconds(2),
                ChatConfig.SlowPolicy.DROP), o.cfg());
        assertEquals(ChatConfig.SlowPolicy.DISCONNECT,
                ChatDemo.parse("--slow-policy", "DISCONNECT").cfg().slowPolicy(), "any case");
        assertTrue(ChatDemo.parse("--queue", "8", "--help").help());
    }

    @Test
    void badFlagsAreClearErrors() {
        assertEquals("--slow-policy: slow policy must be disconnect or drop, not 'sometimes'",
                error("--slow-policy", "sometimes"));
        assertEquals("--slow-policy needs a value", error("--queue", "4", "--slow-policy"));
        assertEquals("--queue takes a number, not 'many'", error("--queue", "many"));
        assertEquals("--queue: maxClients, maxLine and queue must be >= 1", error("--queue", "0"));
        assertEquals("unknown flag --slow", error("--slow", "drop"));
        assertEquals("--port: port 70000 out of range 0..65535", error("--port", "70000"));
        assertEquals("--port: port -1 out of range 0..65535", error("--port", "-1"));
        assertEquals("--port takes a number, not 'http'", error("--port", "http"));
    }

    /** The real program: a bad policy prints the reason and the usage on stderr and exits with 2. */
    @Test
    void aBadPolicyExitsWithStatus2AndTheUsage() throws IOException, InterruptedException {
        String java = ProcessHandle.current().info().command().orElseThrow();
        Process p = new ProcessBuilder(List.of(java, "-cp", System.getProperty("java.class.path"),
                ChatDemo.class.getName(), "--slow-policy", "sometimes"))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .start();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(p.waitFor(TestSupport.TIMEOUT_S, TimeUnit.SECONDS), "the demo exited");
        assertEquals(2, p.exitValue(), err);
        assertTrue(err.startsWith("chat: --slow-policy: slow policy must be disconnect or drop, not 'sometimes'\n"), err);
        assertTrue(err.contains("usage: ./gmp4j run chat") && err.contains("[--slow-policy disconnect|drop]"), err);
    }

    private static String error(String... args) {
        return assertThrows(IllegalArgumentException.class, () -> ChatDemo.parse(args)).getMessage();
    }
}
