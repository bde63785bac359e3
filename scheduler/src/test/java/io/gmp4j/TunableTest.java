package io.gmp4j;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The tunables' list is well formed and a bad value is reported naming its property. */
class TunableTest {
    @Test
    void everyPropertyIsListedOnceUnderGmp4j() {
        Set<String> seen = new HashSet<>();
        for (Tunable t : Tunable.values()) {
            assertTrue(t.property().startsWith("gmp4j."), t.property());
            assertTrue(seen.add(t.property()), "listed twice: " + t.property());
            assertFalse(t.defaultValue().isBlank() || t.meaning().isBlank(), t.property());
        }
    }

    @Test
    void aValueThatIsNoNumberIsReportedWithItsProperty() {
        String was = System.getProperty(Tunable.RUNQSIZE.property());
        System.setProperty(Tunable.RUNQSIZE.property(), "big");
        try {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Tunable.RUNQSIZE.intValue(256));
            assertEquals("-Dgmp4j.runqsize=big: not a whole number", e.getMessage());
            assertThrows(IllegalArgumentException.class, GoRuntime::builder, "the builder reads it and says so");
        } finally {
            if (was == null) {
                System.clearProperty(Tunable.RUNQSIZE.property());
            } else {
                System.setProperty(Tunable.RUNQSIZE.property(), was);
            }
        }
        assertEquals(256, Tunable.RUNQSIZE.intValue(256));
    }
}
