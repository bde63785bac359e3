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

/** A chat server on its own 2-P runtime per test, stopped (and checked stopped) after it. */
@ExtendWith(NoUncaughtExceptions.class)
abstract class ChatTestBase {
    GoRuntime rt;
    ChatServer server;

    /** Starts the server on a free loopback port and returns its address. */
    InetSocketAddress start(ChatConfig cfg) throws IOException {
        rt = GoRuntime.builder().maxProcs(2).name("chat-test").build();
        server = ChatServer.start(rt, "127.0.0.1:0", cfg);
        return server.address();
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
