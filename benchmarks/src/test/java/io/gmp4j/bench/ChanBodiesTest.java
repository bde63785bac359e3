package io.gmp4j.bench;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.concurrent.TimeUnit;
import java.util.function.ToLongFunction;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** Each channel benchmark body once, at a small size, for every implementation: results, not timings. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ChanBodiesTest {

    private static long runIn(BenchContext ctx, BenchChan.Impl impl, ToLongFunction<BenchChan.Impl> body) {
        long[] out = new long[1];
        ctx.run(() -> out[0] = body.applyAsLong(impl));
        return out[0];
    }

    @ParameterizedTest
    @ValueSource(strings = {"gmp4j", "jdk", "jox"})
    void chanBodiesComputeTheRightResults(String name) {
        BenchChan.Impl impl = BenchChan.impl(name);
        assertEquals(name, impl.name());
        for (int procs : new int[]{1, 2}) {
            try (BenchContext ctx = BenchContext.of(name, procs)) {
                String at = name + " procs=" + procs + " ";
                assertEquals(5_000, runIn(ctx, impl, i -> ChanBodies.pingpong(i, 5_000)), at + "pingpong");
                assertEquals(ChanBodies.bufferedExpected(20_000),
                        runIn(ctx, impl, i -> ChanBodies.buffered(i, 1, 1, 20_000, 1024)), at + "buffered-1p1c");
                assertEquals(ChanBodies.bufferedExpected(20_000),
                        runIn(ctx, impl, i -> ChanBodies.buffered(i, 4, 4, 20_000, 1024)), at + "buffered-4p4c");
                // small capacity: producers and consumers block on the buffer too
                assertEquals(ChanBodies.bufferedExpected(20_000),
                        runIn(ctx, impl, i -> ChanBodies.buffered(i, 4, 4, 20_000, 3)), at + "buffered cap 3");
                if (!name.equals("jdk")) {
                    assertEquals(ChanBodies.selectExpected(4_000),
                            runIn(ctx, impl, i -> ChanBodies.select(i, 4_000)), at + "select");
                }
                assertEquals(ChanBodies.sieveExpected(100),
                        runIn(ctx, impl, i -> ChanBodies.sieve(i, 100, 541)), at + "sieve (100th prime 541)");
                assertEquals(ChanBodies.threadringExpected(503, 20_000),
                        runIn(ctx, impl, i -> ChanBodies.threadring(i, 503, 20_000)), at + "threadring");
                assertEquals(ChanBodies.threadringExpected(7, 1_000),
                        runIn(ctx, impl, i -> ChanBodies.threadring(i, 7, 1_000)), at + "threadring of 7");
            }
        }
    }

    @Test
    void jdkHasNoSelect() {
        BenchChan.Impl jdk = BenchChan.impl("jdk");
        assertThrows(UnsupportedOperationException.class, () -> jdk.select2(jdk.make(0), jdk.make(0)));
    }

    @Test
    void expectedValuesAreRight() {
        assertEquals(ChanBodies.SIEVE_LAST, nthPrime(ChanBodies.SIEVE_PRIMES));
        assertEquals(541, nthPrime(100));
        assertEquals(361, ChanBodies.threadringExpected(503, 10_000_000));
        long sum = 0;
        for (int i = 0; i < 5_000; i++) {
            sum += i & 1023;
        }
        assertEquals(sum, ChanBodies.bufferedExpected(5_000));
        // the full sizes: what BenchChild checks against
        assertEquals(ChanBodies.PINGPONG_N, BenchChild.chanExpected("pingpong"));
        assertEquals(ChanBodies.sieveExpected(2_000), BenchChild.chanExpected("sieve"));
        assertEquals(0, ChanBodies.BUFFERED_N % 4);
        assertEquals(0, ChanBodies.SELECT_N % 2);
        // a broken implementation fails loudly
        assertThrows(AssertionError.class, () -> Bodies.verify("sieve", 1, ChanBodies.sieveExpected(2_000)));
    }

    @Test
    void brokenSieveFailsLoudly() {
        // asking for more primes than exist up to `last` must throw, not return a wrong sum
        try (BenchContext ctx = BenchContext.of("gmp4j", 1)) {
            assertThrows(AssertionError.class,
                    () -> runIn(ctx, BenchChan.GMP4J, i -> ChanBodies.sieve(i, 101, 541)));
        }
    }

    private static int nthPrime(int n) {
        int found = 0;
        for (int x = 2; ; x++) {
            boolean p = true;
            for (int d = 2; d * d <= x; d++) {
                if (x % d == 0) {
                    p = false;
                    break;
                }
            }
            if (p && ++found == n) {
                return x;
            }
        }
    }

    @Test
    void newBenchNamesParse() {
        BenchOptions o = BenchOptions.parse(new String[]{"pingpong", "sieve", "--impls", "gmp4j,jox", "--quick"});
        assertEquals(java.util.List.of("pingpong", "sieve"), o.benches);
        assertEquals(java.util.List.of("gmp4j", "jox"), o.impls);
        assertEquals("0+1", o.repsFor("threadring"));
    }
}
