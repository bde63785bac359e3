package io.gmp4j.examples.ports;

import io.gmp4j.GoRuntime;
import io.gmp4j.NoUncaughtExceptions;
import io.gmp4j.TestSupport;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.*;

/** The concurrent sieve prints what a sequential sieve computes, and leaves no goroutine behind. */
@ExtendWith(NoUncaughtExceptions.class)
class SieveTest {
    /** The first {@code n} primes by the sieve of Eratosthenes on one thread. */
    static List<Integer> sequentialPrimes(int n) {
        List<Integer> primes = new ArrayList<>();
        int limit = 32;
        while (primes.size() < n) {
            limit *= 2;
            primes.clear();
            boolean[] composite = new boolean[limit + 1];
            for (int i = 2; i <= limit && primes.size() < n; i++) {
                if (!composite[i]) {
                    primes.add(i);
                    for (long j = (long) i * i; j <= limit; j += i) {
                        composite[(int) j] = true;
                    }
                }
            }
        }
        return primes;
    }

    @ParameterizedTest(name = "procs={0}")
    @ValueSource(ints = {1, 2})
    void theFirst2000PrimesEqualASequentialSieveAndEveryGoroutineEnds(int procs) {
        int n = 2_000;
        List<Integer> expect = sequentialPrimes(n);
        assertEquals(17_389, expect.get(n - 1), "the reference sieve itself");
        try (GoRuntime rt = GoRuntime.builder().maxProcs(procs).name("sieve-" + procs).build()) {
            TestSupport.runInGoroutine(rt, () -> {
                long before = rt.numGoroutine();
                List<Integer> printed = new ArrayList<>();
                long[] most = {0};
                Sieve.sieve(n, p -> {
                    printed.add(p);
                    most[0] = Math.max(most[0], rt.numGoroutine());
                });
                assertEquals(expect, printed);
                // While prime #i is printed, the generator and i - 1 filters are running.
                assertEquals(before + n, most[0], "goroutines at the last prime: generator + filters");
                TestSupport.awaitCondition(() -> rt.numGoroutine() == before,
                        () -> rt.numGoroutine() + " goroutines, " + before + " before:\n" + rt.dump());
            });
        }
    }

    @Test
    void zeroPrimesStartsAndStopsTheGenerator() {
        try (GoRuntime rt = GoRuntime.builder().maxProcs(2).name("sieve-zero").build()) {
            TestSupport.runInGoroutine(rt, () -> {
                long before = rt.numGoroutine();
                List<Integer> printed = new ArrayList<>();
                Sieve.sieve(0, printed::add);
                assertEquals(List.of(), printed);
                TestSupport.awaitCondition(() -> rt.numGoroutine() == before, rt::dump);
            });
        }
    }

    @Test
    void aPrinterThatFailsStillStopsTheChain() {
        try (GoRuntime rt = GoRuntime.builder().maxProcs(2).name("sieve-fail").build()) {
            TestSupport.runInGoroutine(rt, () -> {
                long before = rt.numGoroutine();
                List<Integer> printed = new ArrayList<>();
                IllegalStateException e = assertThrows(IllegalStateException.class, () -> Sieve.sieve(100, p -> {
                    if (printed.size() == 50) {
                        throw new IllegalStateException("printer out of paper");
                    }
                    printed.add(p);
                }));
                assertEquals("printer out of paper", e.getMessage());
                assertEquals(sequentialPrimes(50), printed);
                TestSupport.awaitCondition(() -> rt.numGoroutine() == before, rt::dump);
            });
        }
    }

    @Test
    void aNegativeCountIsRefused() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Sieve.sieve(-1, p -> { }));
        assertEquals("sieve: negative count of primes: -1", e.getMessage());
    }
}
