package io.gmp4j.examples.proxy;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.*;

/** The command line: every flag, its defaults, and a clear message for each kind of mistake. */
class ProxyFlagsTest {
    @Test
    void everyFlagInBothForms() {
        ProxyConfig c = ProxyFlags.parse(new String[]{
                "--listen", "127.0.0.1:9100", "--upstream=127.0.0.1:9001,127.0.0.1:9002",
                "--max-conns", "7", "--connect-timeout=250ms", "--idle-timeout", "2m", "--stats-interval", "0"});
        assertEquals(new InetSocketAddress("127.0.0.1", 9100), c.listen());
        assertEquals(List.of(new InetSocketAddress("127.0.0.1", 9001), new InetSocketAddress("127.0.0.1", 9002)),
                c.upstreams());
        assertEquals(7, c.maxConns());
        assertEquals(Duration.ofMillis(250), c.connectTimeout());
        assertEquals(Duration.ofMinutes(2), c.idleTimeout());
        assertEquals(Duration.ZERO, c.statsInterval());
    }

    @Test
    void defaultsNeedOnlyAnUpstream() {
        ProxyConfig c = ProxyFlags.parse(new String[]{"--upstream", "127.0.0.1:9001"});
        assertEquals(new InetSocketAddress("127.0.0.1", 9000), c.listen());
        assertEquals(ProxyConfig.DEFAULT_MAX_CONNS, c.maxConns());
        assertEquals(ProxyConfig.DEFAULT_CONNECT_TIMEOUT, c.connectTimeout());
        assertEquals(ProxyConfig.DEFAULT_IDLE_TIMEOUT, c.idleTimeout());
        assertEquals(ProxyConfig.DEFAULT_STATS_INTERVAL, c.statsInterval());
        assertEquals(9000, ProxyFlags.parse(new String[]{"--upstream", "127.0.0.1:1", "--listen", ":9000"}).listen().getPort());
    }

    @Test
    void mistakesSayWhichFlagAndWhatIsWrong() {
        assertMessage("missing --upstream", "--listen", "127.0.0.1:9000");
        assertMessage("unknown flag --port", "--upstream", "127.0.0.1:1", "--port", "9000");
        assertMessage("unknown flag stray", "--upstream", "127.0.0.1:1", "stray");
        assertMessage("--upstream needs a value", "--upstream");
        assertMessage("--listen needs a value", "--listen", "--upstream", "127.0.0.1:1");
        assertMessage("--upstream: '127.0.0.1' is not HOST:PORT (missing port)", "--upstream", "127.0.0.1");
        assertMessage("--upstream: ':9001' has no host", "--upstream", ":9001");
        assertMessage("--upstream: port 0 out of range", "--upstream", "127.0.0.1:0");
        assertMessage("--upstream: port 70000 out of range", "--upstream", "127.0.0.1:70000");
        assertMessage("--upstream: empty entry", "--upstream", "127.0.0.1:1,");
        assertMessage("--upstream: '127.0.0.1:x' has no port number", "--upstream", "127.0.0.1:x");
        assertMessage("--max-conns: 'ten' is not a number", "--upstream", "127.0.0.1:1", "--max-conns", "ten");
        assertMessage("--max-conns must be >= 0, got -1", "--upstream", "127.0.0.1:1", "--max-conns", "-1");
        assertMessage("--idle-timeout: '5x' is not a duration", "--upstream", "127.0.0.1:1", "--idle-timeout", "5x");
        assertMessage("--connect-timeout must be positive", "--upstream", "127.0.0.1:1", "--connect-timeout", "0");
        assertMessage("--stats-interval: '-1s' is not a duration", "--upstream", "127.0.0.1:1", "--stats-interval=-1s");
    }

    @Test
    void durationsRoundTrip() {
        for (String s : List.of("300ms", "5s", "2m", "1h")) {
            assertEquals(s, ProxyFlags.formatDuration(ProxyFlags.duration("--x", s)));
        }
        assertEquals(Duration.ofSeconds(30), ProxyFlags.duration("--x", "30"));
    }

    private static void assertMessage(String expected, String... args) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> ProxyFlags.parse(args));
        assertTrue(e.getMessage().startsWith(expected), () -> "expected '" + expected + "...', got '" + e.getMessage() + "'");
    }
}
