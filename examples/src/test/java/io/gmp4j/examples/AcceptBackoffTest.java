package io.gmp4j.examples;

import io.gmp4j.GoRuntime;
import io.gmp4j.TestSupport;
import io.gmp4j.chan.Chan;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/** Go's accept back-off: the delays, the log line, and a pause that the quit channel ends. */
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

    @Test
    void aPauseEndsWhenQuitIsClosedAndOtherwiseRunsItsCourse() {
        try (GoRuntime rt = GoRuntime.builder().maxProcs(1).name("backoff").build()) {
            TestSupport.runInGoroutine(rt, () -> {
                Chan<Void> quit = new Chan<>();
                AcceptBackoff b = new AcceptBackoff(quit);
                assertTrue(b.pause(Duration.ofMillis(5)), "nothing on quit: the whole delay");
                quit.close();
                // A delay far beyond the test's timeout: only the closed quit can end it.
                assertFalse(b.pause(Duration.ofSeconds(TestSupport.TIMEOUT_S * 10)), "quit closed: cut short");
            });
        }
        assertThrows(IllegalStateException.class, () -> new AcceptBackoff().pause(Duration.ofMillis(5)));
    }
}
