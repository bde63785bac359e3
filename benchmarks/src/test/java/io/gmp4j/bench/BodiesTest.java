package io.gmp4j.bench;

import io.gmp4j.runtime.Scheduler;
import io.gmp4j.GoRuntime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Each benchmark body once, at a small size, for both implementations: results, not timings. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class BodiesTest {

    private static long[] runIn(BenchContext ctx, java.util.function.ToLongFunction<Spawner> body) {
        long[] out = new long[1];
        ctx.run(() -> out[0] = body.applyAsLong(ctx.spawner()));
        return out;
    }

    @ParameterizedTest
    @ValueSource(strings = {"gmp4j", "jdk"})
    void bodiesComputeTheRightResults(String impl) {
        for (int procs : new int[]{1, 2}) {
            try (BenchContext ctx = BenchContext.of(impl, procs)) {
                assertEquals(10_000, runIn(ctx, s -> Bodies.spawn(s, 10_000))[0], impl + " spawn");
                assertEquals(Bodies.skynetExpected(10_000), runIn(ctx, s -> Bodies.skynet(s, 10_000, 10))[0],
                        impl + " skynet");
                assertEquals(49_995_000L, Bodies.skynetExpected(10_000));
                assertEquals(6_765L, runIn(ctx, s -> Bodies.fib(s, 20, 5))[0], impl + " fib");
            }
        }
    }

    @Test
    void fullSizeExpectedValuesAreConsistent() {
        assertEquals(Bodies.SKYNET_EXPECTED, Bodies.skynetExpected(Bodies.SKYNET_SIZE));
        assertEquals(Bodies.FIB_EXPECTED, Bodies.fibSeq(Bodies.FIB_N));
        assertThrows(AssertionError.class, () -> Bodies.verify("skynet", 1, 2));
    }

    @Test
    void parallelFloorComputesFibFromTheSameLeavesAsTheGoroutines() throws InterruptedException {
        for (int procs : new int[]{1, 2}) {
            try (ParallelFloor f = new ParallelFloor(procs, 20, 5)) {
                assertEquals(32, f.leafCount(), "2^5 leaves at spawn depth 5");
                for (int rep = 0; rep < 3; rep++) {
                    assertEquals(6_765L, f.run(), "procs " + procs + " rep " + rep);
                }
            }
        }
        try (ParallelFloor f = new ParallelFloor(1, 3, 5)) {
            assertEquals(3, f.leafCount(), "fib(3): leaves 1, 1, 0 where n < 2 ends the recursion early");
            assertEquals(2L, f.run());
        }
    }

    @Test
    void floorLoopsTerminate() {
        try (GoRuntime rt = GoRuntime.builder().maxProcs(1).name("floor-test").build()) {
            long[] ns = new long[3];
            rt.main(() -> {
                ns[0] = Floor.switchGPark(Scheduler.of(rt), 1_000);
                ns[1] = Floor.switchLockSupport(r -> Scheduler.of(rt).go(r).thread(), 1_000);
                ns[2] = Floor.execute(Scheduler.of(rt), 10_000, 128);
            });
            for (long n : ns) {
                assertTrue(n > 0);
            }
        }
        long[] ns = new long[1];
        new BenchContext.Jdk().run(() -> ns[0] = Floor.switchLockSupport(Thread::startVirtualThread, 1_000));
        assertTrue(ns[0] > 0);
        try (GoRuntime off = GoRuntime.builder().maxProcs(1).goroutineRegistry(false).name("reg-off").build()) {
            off.main(() -> assertEquals(5_000, Bodies.spawn(Spawner.GMP4J, 5_000)));
        }
    }

    @Test
    void resultLinesRoundTrip() {
        ChildRunner.Result r = ChildRunner.parseResult(
                "@result bench=skynet impl=go procs=2 value=123.456 unit=ms samples=120.000,123.456,130.000");
        assertEquals("skynet", r.bench());
        assertEquals("go", r.impl());
        assertEquals(2, r.procs());
        assertEquals(123.456, r.value(), 1e-9);
        assertEquals(123.456, BenchChild.median(List.of(130.0, 120.0, 123.456)), 1e-9);
        assertEquals(2.5, BenchChild.median(List.of(1.0, 2.0, 3.0, 4.0)), 1e-9);
        assertNotNull(BenchOptions.parse(new String[]{"fib", "--procs", "1,2", "--quick", "--json"}));
        assertTrue(BenchOptions.parse(new String[]{"fib", "--pin"}).pin, "--pin pins gmp4j's carriers");
        assertFalse(BenchOptions.parse(new String[]{"fib"}).pin, "unpinned by default, as Go");
        assertEquals("20+5", BenchOptions.parse(new String[]{"chat-fanout"}).repsFor("chat-fanout"),
                "network servers warm up for twenty windows");
        assertEquals("2+5", BenchOptions.parse(new String[]{"echo-c16", "--warmup", "2"}).repsFor("echo-c16"));
        assertEquals("1+3", BenchOptions.parse(new String[]{"echo-c16", "--quick"}).repsFor("echo-c16"));
        assertEquals("3+5", BenchOptions.parse(new String[]{"skynet"}).repsFor("skynet"));
        assertThrows(IllegalArgumentException.class, () -> BenchOptions.parse(new String[]{"nosuch"}));
        assertThrows(IllegalArgumentException.class, () -> ChildRunner.parseResult("@result bench=x"));
    }

    @Test
    void roundsAlternateAndTheFigureIsTheMedianOfTheRounds() {
        assertEquals(3, BenchOptions.parse(new String[]{"echo-c16", "--rounds", "3"}).rounds);
        assertEquals(1, BenchOptions.parse(new String[]{"echo-c16"}).rounds);
        assertThrows(IllegalArgumentException.class, () -> BenchOptions.parse(new String[]{"echo-c16", "--rounds", "0"}));
        List<ChildRunner.Result> merged = ChildRunner.mergeRounds(List.of(
                new ChildRunner.Result("echo-c16", "gmp4j", 2, 40.0, "req/s", ""),
                new ChildRunner.Result("echo-c16", "netty", 2, 70.0, "req/s", ""),
                new ChildRunner.Result("echo-c16", "gmp4j", 2, 55.0, "req/s", ""),
                new ChildRunner.Result("echo-c16", "netty", 2, 74.0, "req/s", ""),
                new ChildRunner.Result("echo-c16", "gmp4j", 2, 46.0, "req/s", ""),
                new ChildRunner.Result("echo-c16", "netty", 2, 69.0, "req/s", "")));
        assertEquals(2, merged.size());
        assertEquals("gmp4j", merged.get(0).impl());
        assertEquals(46.0, merged.get(0).value(), 1e-9);
        assertEquals(70.0, merged.get(1).value(), 1e-9);
        assertEquals("40.000,55.000,46.000", merged.get(0).samples());
    }
}
