package io.gmp4j;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.util.List;

import static org.junit.jupiter.api.Assertions.*;

/**
 * A JVM started without {@code --add-opens java.base/java.lang=ALL-UNNAMED} gets an error that
 * names the flag at the first use of the runtime, not an obscure reflection failure later.
 */
class MissingFlagTest {
    /** Run in a child JVM without the flag. */
    public static final class Child {
        public static void main(String[] args) {
            TestSupport.childMain(() -> Go.main(() -> System.out.println("ran")));
        }
    }

    @Test
    void runtimeWithoutAddOpensFailsWithAMessageNamingTheFlag() throws IOException, InterruptedException {
        TestSupport.ChildRun run = TestSupport.runChildJvm(List.of(), List.of(), Child.class);
        assertEquals(3, run.exit(), run.output());
        assertTrue(run.output().contains("--add-opens java.base/java.lang=ALL-UNNAMED"), run.output());
        assertTrue(run.output().lines().noneMatch("ran"::equals), run.output());
    }
}
