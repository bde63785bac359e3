package io.gmp4j.examples;

import io.gmp4j.Go;
import io.gmp4j.chan.Chan;
import io.gmp4j.test.SyncTest;
import io.gmp4j.time.Time;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/** Go's accept back-off: the delays, the log line, and a pause that the quit channel ends (on a bubble's clock). */
class AcceptBackoffTest {
    @Test
    void delaysDoubleFrom5msTo1sAndASuccessResetsThem() {
        AcceptBackoff b = new AcceptBackoff();
        List<Long> ms = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            ms.add(b.next().toMillis());
        }
        assertEquals(List.of(5L, 10L, 20L, 40L, 80L, 160L, 320L, 640L, 1000L, 1000L), ms);
        b.reset();
        assertEquals(Duration.ofMillis(5), b.next());
    }

    @Test
    void theLineIsGosAcceptError() {
        IOException e = new IOException("accept tcp 127.0.0.1:7000: Too many open files");
        assertEquals("chat: accept error: accept tcp 127.0.0.1:7000: Too many open files; retrying in 5ms",
                AcceptBackoff.line("chat", e, Duration.ofMillis(5)));
        assertEquals("proxy: accept error: x; retrying in 1s", AcceptBackoff.line("proxy", new IOException("x"), Duration.ofSeconds(1)));
    }

    /** On a synctest bubble's clock: a pause lasts exactly its delay, or until quit is closed. */
    @Test
    void aPauseEndsWhenQuitIsClosedAndOtherwiseRunsItsCourse() {
        SyncTest.run(() -> {
            Chan<Void> quit = new Chan<>();
            AcceptBackoff b = new AcceptBackoff(quit);
            Instant start = Time.now();
            assertTrue(b.pause(Duration.ofMillis(5)), "nothing on quit: the whole delay");
            assertEquals(Duration.ofMillis(5), Time.since(start));
            Go.go(() -> {
                Time.sleep(Duration.ofMillis(20));
                quit.close();
            });
            assertFalse(b.pause(AcceptBackoff.MAX), "quit closed during the pause: cut short");
            assertEquals(Duration.ofMillis(25), Time.since(start), "when quit was closed");
            assertFalse(b.pause(Duration.ofHours(1)), "quit already closed: no wait at all");
            assertEquals(Duration.ofMillis(25), Time.since(start));
        });
        assertThrows(IllegalStateException.class, () -> new AcceptBackoff().pause(Duration.ofMillis(5)));
    }
}
