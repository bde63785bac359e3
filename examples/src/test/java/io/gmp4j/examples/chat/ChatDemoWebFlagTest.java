package io.gmp4j.examples.chat;

import io.gmp4j.GoRuntime;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code --http-port}: the page's port, 8080 unless given, 0 for none; a taken port. */
class ChatDemoWebFlagTest {
    @Test
    void theFlagSetsThePortAndZeroTurnsThePageOff() {
        ChatDemo.Options d = ChatDemo.parse();
        assertEquals(8080, d.httpPort());
        assertFalse(d.httpPortGiven());
        ChatDemo.Options o = ChatDemo.parse("--http-port", "9090", "--port", "7100");
        assertEquals(9090, o.httpPort());
        assertTrue(o.httpPortGiven());
        assertEquals(0, ChatDemo.parse("--http-port", "0").httpPort());
        assertEquals("--http-port takes a number, not 'x'",
                assertThrows(IllegalArgumentException.class, () -> ChatDemo.parse("--http-port", "x")).getMessage()
                        .replaceAll(" \\(.*", ""));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> ChatDemo.parse("--http-port", "70000"))
                .getMessage().contains("out of range"));
    }

    @Test
    void aTakenPortFailsWhenGivenAndMovesWhenDefault() throws Exception {
        try (GoRuntime rt = GoRuntime.builder().maxProcs(2).name("chat-flag-test").build();
             ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            int port = taken.getLocalPort();
            ChatDemo.Options given = ChatDemo.parse("--port", "0", "--http-port", Integer.toString(port));
            IOException e = assertThrows(IOException.class, () -> ChatDemo.startServer(rt, given, null));
            assertTrue(e.getMessage().startsWith("cannot serve the page: web 127.0.0.1:" + port + ": cannot listen")
                    && e.getMessage().endsWith("(try --http-port <another>, or 0 for no page)"), e.getMessage());

            ChatDemo.Options dflt = new ChatDemo.Options(0, port, false, 0, ChatConfig.defaults(), false, false);
            ChatServer moved = ChatDemo.startServer(rt, dflt, null);
            try {
                assertNotEquals(port, moved.webAddress().getPort(), "the page went to another port");
            } finally {
                moved.close();
            }

            ChatServer none = ChatDemo.startServer(rt, ChatDemo.parse("--port", "0", "--http-port", "0"), null);
            try {
                assertNull(none.webAddress(), "--http-port 0: no page");
            } finally {
                none.close();
            }
        }
    }
}
