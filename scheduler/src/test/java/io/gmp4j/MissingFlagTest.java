package io.gmp4j;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/**
 * A JVM started without {@code --add-opens java.base/java.lang=ALL-UNNAMED} gets an error that
 * names the flag and the places a user's own program sets it (java command line, surefire,
 * exec-maven-plugin, IDE, executable jar manifest) at the first use of the runtime, not an
 * obscure reflection failure later.
 */
class MissingFlagTest {
    private static final String FLAG = "--add-opens java.base/java.lang=ALL-UNNAMED";

    /** Run in a child JVM without the flag. */
    public static final class Child {
        public static void main(String[] args) {
            TestSupport.childMain(() -> Go.main(() -> System.out.println("ran")));
        }
    }

    @Test
    void runtimeWithoutAddOpensFailsWithAMessageNamingTheFlagAndWhereToPutIt()
            throws IOException, InterruptedException {
        TestSupport.ChildRun run = TestSupport.runChildJvm(List.of(), List.of(), Child.class);
        assertEquals(3, run.exit(), run.output());
        String out = run.output();
        assertTrue(out.contains("gmp4j needs the JVM flag " + FLAG), out);
        assertTrue(out.contains("java " + FLAG + " -cp"), out);
        assertTrue(out.contains("maven-surefire-plugin's <argLine>"), out);
        assertTrue(out.contains("exec-maven-plugin"), out);
        assertTrue(out.contains("VM options"), out);
        assertTrue(out.contains("\"Add-Opens: java.base/java.lang\""), out);
        // The launcher only exists in gmp4j's own repository: a user's program is not run by it.
        assertFalse(out.contains("./gmp4j"), out);
        assertTrue(out.lines().noneMatch("ran"::equals), out);
    }

    @Test
    void theSameChildWithTheFlagRuns() throws IOException, InterruptedException {
        TestSupport.ChildRun run = TestSupport.runChildJvm(List.of(),
                List.of("--add-opens", "java.base/java.lang=ALL-UNNAMED"), Child.class);
        assertEquals(0, run.exit(), run.output());
        assertTrue(run.output().lines().anyMatch("ran"::equals), run.output());
        assertFalse(run.output().contains("gmp4j needs the JVM flag"), run.output());
    }
}
