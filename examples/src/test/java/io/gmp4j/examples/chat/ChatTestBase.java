package io.gmp4j.examples.chat;

import io.gmp4j.GoRuntime;
import io.gmp4j.NoUncaughtExceptions;
import io.gmp4j.TestSupport;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A chat server on its own 2-P runtime per test, stopped (and checked stopped) after it: TCP
 * only ({@link #start}) or with the page and WebSockets too ({@link #startWithWeb}), on free
 * loopback ports.
 */
@ExtendWith(NoUncaughtExceptions.class)
abstract class ChatTestBase {
    GoRuntime rt;
    ChatServer server;
    /** The server's TCP address, once started. */
    InetSocketAddress tcp;
    /** The address of its page and WebSockets, once started with them. */
    InetSocketAddress web;

    /** Starts the server, TCP only, and returns its address. */
    InetSocketAddress start(ChatConfig cfg) throws IOException {
        return start(cfg, null);
    }

    /** Starts the server with its page and WebSockets too ({@link #web}); returns the TCP address. */
    InetSocketAddress startWithWeb(ChatConfig cfg) throws IOException {
        return start(cfg, "127.0.0.1:0");
    }

    private InetSocketAddress start(ChatConfig cfg, String webAddress) throws IOException {
        rt = GoRuntime.builder().maxProcs(2).name("chat-test").build();
        server = ChatServer.start(rt, "127.0.0.1:0", webAddress, cfg);
        tcp = server.address();
        web = webAddress == null ? null : server.webAddress();
        return tcp;
    }

    @AfterEach
    void stop() {
        if (server != null) {
            server.close();
            assertTrue(server.awaitStopped(Duration.ofSeconds(TestSupport.TIMEOUT_S)), "server stopped");
        }
        if (rt != null) {
            rt.close();
        }
    }
}
