package io.gmp4j.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Each Savina body once, at a small size, for every implementation, in-process: results, not timings. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class SavinaBodiesTest {

    @ParameterizedTest
    @ValueSource(strings = {"gmp4j", "pekko", "jdk"})
    void savinaBodiesComputeTheRightResults(String name) {
        for (int procs : new int[]{1, 2}) {
            try (SavinaActors a = SavinaActors.of(name, procs)) {
                assertEquals(name, a.name());
                String at = name + " procs=" + procs + " ";
                // twice each: a second run on the same system finds the first one's actors gone
                for (int round = 0; round < 2; round++) {
                    assertEquals(5_000, SavinaBodies.pingpong(a, 5_000), at + "pingpong");
                    assertEquals(0, SavinaBodies.pingpong(a, 0), at + "pingpong of 0");
                    assertEquals(20_000, SavinaBodies.counting(a, 20_000), at + "counting");
                    assertEquals(SavinaBodies.threadringExpected(100, 5_003),
                            SavinaBodies.threadring(a, 100, 5_003), at + "threadring");
                    assertEquals(SavinaBodies.threadringExpected(7, 1_000),
                            SavinaBodies.threadring(a, 7, 1_000), at + "threadring of 7");
                    assertEquals(6L * 500, SavinaBodies.fjThroughput(a, 6, 500), at + "fj-throughput");
                    assertEquals(2_000, SavinaBodies.fjCreation(a, 2_000), at + "fj-creation");
                    assertEquals(10L * 300, SavinaBodies.big(a, 10, 300), at + "big");
                    assertEquals(2L * 2_000, SavinaBodies.chameneos(a, 10, 2_000), at + "chameneos");
                }
            }
        }
    }

    @Test
    void expectedValuesAreRight() {
        // the token is spent at actor hops % actors; every hop is counted once
        assertEquals(100L * 100_000 + 0, SavinaBodies.threadringExpected(100, 100_000));
        assertEquals(7L * 1_000 + 6, SavinaBodies.threadringExpected(7, 1_000));
        assertEquals(SavinaBodies.PINGPONG_N, BenchChild.savinaExpected("savina-pingpong"));
        assertEquals(1_000_000, BenchChild.savinaExpected("savina-counting"));
        assertEquals(600_000, BenchChild.savinaExpected("savina-fj-throughput"));
        assertEquals(40_000, BenchChild.savinaExpected("savina-fj-creation"));
        assertEquals(2_400_000, BenchChild.savinaExpected("savina-big"));
        assertEquals(400_000, BenchChild.savinaExpected("savina-chameneos"));
        for (String b : BenchChild.SAVINA) {
            assertEquals(true, BenchMain.BENCHES.contains(b), b);
        }
        assertThrows(AssertionError.class, () -> Bodies.verify("savina-counting", 999_999, 1_000_000));
    }

    @Test
    void chameneosColoursComplement() {
        SavinaBodies.Colour b = SavinaBodies.Colour.BLUE;
        SavinaBodies.Colour r = SavinaBodies.Colour.RED;
        SavinaBodies.Colour y = SavinaBodies.Colour.YELLOW;
        assertEquals(y, b.complement(r));
        assertEquals(y, r.complement(b));
        assertEquals(r, b.complement(y));
        assertEquals(b, r.complement(y));
        assertEquals(b, y.complement(r));
        assertEquals(b, b.complement(b));
    }

    @Test
    void unknownImplIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> SavinaActors.of("jox", 1));
    }
}
