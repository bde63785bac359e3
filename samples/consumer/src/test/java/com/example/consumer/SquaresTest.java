package com.example.consumer;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

/** Runs under surefire with the gmp4j JVM flags in its argLine. */
class SquaresTest {
    @Test
    void everySquareReachesTheCounterOnce() {
        Squares.Result r = Squares.run(10_000, 8);
        assertEquals(10_000, r.count());
        assertEquals(333_383_335_000L, r.sum());
        assertEquals(Squares.expectedSum(10_000), r.sum());
    }

    @Test
    void nothingToSquare() {
        assertEquals(new Squares.Result(0, 0), Squares.run(0, 1));
    }

    @Test
    void badInputIsRejected() {
        assertThrows(IllegalArgumentException.class, () -> Squares.run(-1, 1));
        assertThrows(IllegalArgumentException.class, () -> Squares.run(1, 0));
    }
}
