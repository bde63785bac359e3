package io.gmp4j;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.junit.jupiter.api.Assertions.*;

/** GOMAXPROCS precedence: builder > -Dgmp4j.maxprocs > env GOMAXPROCS > availableProcessors. */
@ExtendWith(NoUncaughtExceptions.class)
class ConfigTest {
    private static final String PROP = "gmp4j.maxprocs";

    /** Runs {@code body} with the property set (or cleared for null), restoring it after. */
    private static void withProperty(String value, Runnable body) {
        TestSupport.withProperty(PROP, value, body);
    }

    @Test
    void builderWinsOverTheProperty() {
        withProperty("5", () -> {
            try (GoRuntime rt = GoRuntime.builder().maxProcs(3).name("config-builder").build()) {
                assertEquals(3, rt.gomaxprocs());
                assertEquals(3, rt.stats().gomaxprocs());
            }
        });
    }

    @Test
    void propertyWinsOverEnvironmentAndCpuCount() {
        withProperty("3", () -> {
            assertEquals(3, GoRuntime.Builder.resolveMaxProcs());
            try (GoRuntime rt = GoRuntime.builder().name("config-property").build()) {
                assertEquals(3, rt.gomaxprocs());
            }
        });
        withProperty(" 7 ", () -> assertEquals(7, GoRuntime.Builder.resolveMaxProcs()));
    }

    @Test
    void withoutPropertyTheEnvironmentThenTheCpuCountDecide() {
        withProperty(null, () -> {
            String env = System.getenv("GOMAXPROCS");
            int expected = env != null && !env.isBlank()
                    ? GoRuntime.Builder.parseProcs(env, "GOMAXPROCS")
                    : Runtime.getRuntime().availableProcessors();
            assertEquals(expected, GoRuntime.Builder.resolveMaxProcs());
        });
        withProperty("  ", () -> assertTrue(GoRuntime.Builder.resolveMaxProcs() >= 1, "blank is unset"));
    }

    @Test
    void environmentValuesAreParsedLikeTheProperty() {
        assertEquals(4, GoRuntime.Builder.parseProcs("4", "GOMAXPROCS"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> GoRuntime.Builder.parseProcs("-1", "GOMAXPROCS"));
        assertTrue(e.getMessage().contains("GOMAXPROCS"), e.getMessage());
        assertTrue(e.getMessage().contains("'-1'"), e.getMessage());
    }

    @Test
    void badPropertyValuesFailClearly() {
        for (String bad : new String[] {"abc", "0", "-2", "1.5"}) {
            withProperty(bad, () -> {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                        GoRuntime.Builder::resolveMaxProcs);
                assertTrue(e.getMessage().contains("-Dgmp4j.maxprocs"), e.getMessage());
                assertTrue(e.getMessage().contains("'" + bad + "'"), e.getMessage());
                assertTrue(e.getMessage().contains("positive integer"), e.getMessage());
                assertThrows(IllegalArgumentException.class,
                        () -> GoRuntime.builder().name("config-bad-" + bad).build().close());
            });
        }
    }

    @Test
    void badBuilderValuesFailClearly() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> GoRuntime.builder().maxProcs(0));
        assertTrue(e.getMessage().contains("maxProcs"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class,
                () -> GoRuntime.builder().maxProcs(1).runQueueSize(100).name("config-bad-runq").build().close());
        assertTrue(e.getMessage().contains("power of two"), e.getMessage());
    }
}
