package io.gmp4j.net;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The leak check itself: a buffer dropped without release is reported. */
class LeakCheckTest {
    @BeforeAll
    static void install() {
        LeakCheck.install();
    }

    @Test
    void aDroppedBufferIsReported() {
        assertTrue(LeakCheck.take().isEmpty(), "leaks left by an earlier class");
        leak();
        List<String> found = List.of();
        for (int i = 0; i < 20 && found.isEmpty(); i++) {
            LeakCheck.collect(1);
            found = LeakCheck.take();
        }
        assertFalse(found.isEmpty(), "the leak detector did not report a dropped buffer");
    }

    private static void leak() {
        ByteBuf b = ByteBufAllocator.DEFAULT.directBuffer(64);
        b.writeLong(42);
        // dropped without release
    }
}
