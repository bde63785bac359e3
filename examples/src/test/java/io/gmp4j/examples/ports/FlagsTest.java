package io.gmp4j.examples.ports;

import java.time.Duration;
import java.util.List;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/** The ports' little port of Go's flag package and time.ParseDuration. */
class FlagsTest {
    @Test
    void flagsInEveryGoSpellingThenTheArguments() {
        Flags f = new Flags("t");
        Supplier<Integer> n = f.intFlag("n", 10, "n");
        Supplier<Integer> m = f.intFlag("m", 1, "m");
        Supplier<Duration> d = f.durationFlag("d", Duration.ofSeconds(1), "d");
        Supplier<Integer> unset = f.intFlag("unset", 7, "keeps its default");
        f.parse(new String[] {"-n", "5", "--m=6", "-d", "1m30s", "http://a/", "-n", "9"});
        assertEquals(5, n.get());
        assertEquals(6, m.get());
        assertEquals(Duration.ofSeconds(90), d.get());
        assertEquals(7, unset.get());
        assertEquals(List.of("http://a/", "-n", "9"), f.args(), "flags end at the first argument");
    }

    @Test
    void badFlagsSayWhatIsWrong() {
        Flags f = new Flags("t");
        f.intFlag("n", 10, "n");
        assertEquals("flag provided but not defined: -x",
                assertThrows(IllegalArgumentException.class, () -> f.parse(new String[] {"-x", "1"})).getMessage());
        assertEquals("flag needs an argument: -n",
                assertThrows(IllegalArgumentException.class, () -> f.parse(new String[] {"-n"})).getMessage());
        assertEquals("invalid value \"ten\" for flag -n",
                assertThrows(IllegalArgumentException.class, () -> f.parse(new String[] {"-n", "ten"})).getMessage());
        assertThrows(IllegalArgumentException.class, () -> f.intFlag("n", 1, "again"));
    }

    @Test
    void goDurations() {
        assertEquals(Duration.ofMillis(250), Flags.parseDuration("250ms"));
        assertEquals(Duration.ofMillis(1500), Flags.parseDuration("1.5s"));
        assertEquals(Duration.ofMinutes(61).plusSeconds(1), Flags.parseDuration("1h1m1s"));
        assertEquals(Duration.ofNanos(3_000), Flags.parseDuration("3us"));
        assertEquals(Duration.ZERO, Flags.parseDuration("0"));
        for (String bad : new String[] {"", "10", "1x", "s", "1s2", "-1s"}) {
            assertThrows(IllegalArgumentException.class, () -> Flags.parseDuration(bad), bad);
        }
        assertEquals("1m30s", Flags.format(Duration.ofSeconds(90)));
        assertEquals("1m0s", Flags.format(Duration.ofMinutes(1)));
        assertEquals("1h0m5s", Flags.format(Duration.ofSeconds(3605)));
        assertEquals("10s", Flags.format(Duration.ofSeconds(10)));
        assertEquals("250ms", Flags.format(Duration.ofMillis(250)));
        assertEquals("1.5s", Flags.format(Duration.ofMillis(1500)));
        assertEquals("0s", Flags.format(Duration.ZERO));
    }
}
