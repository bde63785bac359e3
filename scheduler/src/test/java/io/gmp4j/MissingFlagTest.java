package io.gmp4j;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.*;

/**
 * A JVM started without {@code --add-opens java.base/java.lang=ALL-UNNAMED} gets an error that
 * names the flag at the first use of the runtime, not an obscure reflection failure later.
 */
class MissingFlagTest {
    /** Run in a child JVM without the flag. */
    public static final class Child {
        public static void main(String[] args) {
            try {
                Go.main(() -> System.out.println("ran"));
                System.out.println("no error");
                System.exit(0);
            } catch (IllegalStateException e) {
                System.out.println("error: " + e.getMessage());
                System.exit(3);
            }
        }
    }

    @Test
    void runtimeWithoutAddOpensFailsWithAMessageNamingTheFlag() throws IOException, InterruptedException {
        String java = ProcessHandle.current().info().command().orElseThrow();
        Process p = new ProcessBuilder(List.of(java, "-cp", System.getProperty("java.class.path"),
                Child.class.getName()))
                .redirectErrorStream(true)
                .start();
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), "child JVM did not finish");
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(3, p.exitValue(), out);
        assertTrue(out.contains("--add-opens java.base/java.lang=ALL-UNNAMED"), out);
        assertTrue(out.lines().noneMatch("ran"::equals), out);
    }
}
