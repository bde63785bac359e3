package io.gmp4j.bench.net;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The WebSocket fan-out ({@code chat-ws-fanout}) for a fraction of a second against each of its
 * servers, in one JVM: every line of every sender reaches every client once, in order (the load
 * counts it and throws if not), and the figures have their names. Timings are not checked.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class WsChatLoadTest {
    private static final WindowPlan SHORT = new WindowPlan(1, 2, 150, ProcessHandle.current().pid());

    static List<String> impls() {
        return BenchServer.CHAT_WS_IMPLS;
    }

    @ParameterizedTest
    @MethodSource("impls")
    void everyLineReachesEveryWebSocketClientOnce(String impl) throws Exception {
        try (BenchServer s = BenchServer.start(NetBench.serverKind("chat-ws-fanout"), impl, 2)) {
            int clients = 40;
            ChatLoad.Outcome o = new ChatLoad(s.address(), clients, 4, 8, 2, NetBench.WS_PATH).run(SHORT);
            assertTrue(o.linesSent() > 0, "no line was sent");
            assertEquals(o.linesSent() * clients, o.deliveries());
            assertEquals(List.of("chat-ws-lines", "chat-ws-p99", "chat-ws-p99-slowest", "chat-ws-p99-median", "chat-ws-cpu"),
                    o.figures().stream().map(Figure::bench).toList());
        }
    }
}
