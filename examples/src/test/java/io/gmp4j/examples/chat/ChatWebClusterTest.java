package io.gmp4j.examples.chat;

import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * WebSocket users in a chat cluster: two nodes ({@code ChatDemo --cluster}, JVMs of their own),
 * the first serving the page and WebSockets, the second TCP only. A WebSocket user on one node
 * and a TCP user on the other see each other in {@code /who}, get each other's lines and private
 * messages, and a WebSocket user arriving later is announced on the other node.
 */
@Timeout(value = 300)
class ChatWebClusterTest {
    private static final Pattern WEB = Pattern.compile("in a browser: +http://127\\.0\\.0\\.1:(\\d+)/");

    @Test
    void webSocketAndTcpUsersOnTwoNodesShareTheLobby() throws Exception {
        String cluster = "gmp4j-chat-web-test-" + UUID.randomUUID().toString().substring(0, 8);
        int base = 20000 + ThreadLocalRandom.current().nextInt(20000);
        String members = "127.0.0.1:" + base + ",127.0.0.1:" + (base + 1);
        List<ChatNode> nodes = new ArrayList<>();
        try {
            nodes.add(ChatNode.start("w0", cluster, base, members, "--idle", "0", "--http-port", Integer.toString(freePort())));
            nodes.get(0).awaitStarted();
            nodes.add(ChatNode.start("t1", cluster, base + 1, members, "--idle", "0", "--http-port", "0"));
            for (ChatNode n : nodes) {
                n.awaitStarted();
                n.awaitPeersJoined(1);
            }
            nodes.get(0).await(o -> WEB.matcher(o).find(), "no web address printed");
            Matcher m = WEB.matcher(nodes.get(0).output());
            assertTrue(m.find());
            InetSocketAddress web = new InetSocketAddress("127.0.0.1", Integer.parseInt(m.group(1)));
            assertTrue(!WEB.matcher(nodes.get(1).output()).find(), "--http-port 0: no page");

            try (WsChatClient wanda = WsChatClient.login(web, "wanda");
                 ChatClient tom = ChatClient.login(nodes.get(1).address(), "tom")) {
                wanda.awaitWho("lobby", Set.of("wanda", "tom"));
                wanda.send("hi tom, from a browser");
                tom.await("[lobby] wanda: hi tom, from a browser"::equals);
                tom.send("hello wanda, from a terminal");
                wanda.await("[lobby] tom: hello wanda, from a terminal"::equals);
                tom.send("/msg wanda psst");
                wanda.await("[pm] tom: psst"::equals);
                tom.await("[pm -> wanda] psst"::equals);
                wanda.send("/msg TOM and back");
                tom.await("[pm] wanda: and back"::equals);
                wanda.await("[pm -> tom] and back"::equals);
                try (WsChatClient walt = WsChatClient.login(web, "walt")) {
                    tom.await("*** walt joined lobby"::equals);
                    walt.send("/who");
                    String who = walt.await(l -> l.startsWith("*** in lobby:"));
                    assertEquals(Set.of("wanda", "walt", "tom"), LineClient.whoNames(who));
                }
                tom.await("*** walt left"::equals);
                assertTrue(wanda.seen.stream().noneMatch(l -> l.startsWith("[pm -> wanda]") || l.equals("[pm] wanda: and back")),
                        "wanda sees only her side of the private messages: " + wanda.seen);
                assertTrue(tom.seen.stream().noneMatch(l -> l.startsWith("[pm -> tom]") || l.equals("[pm] tom: psst")),
                        "tom sees only his side of the private messages: " + tom.seen);
            }
        } catch (AssertionError | Exception e) {
            for (ChatNode n : nodes) {
                System.err.println("--- node " + n.name + " output ---\n" + n.output() + "--- end of node " + n.name + " ---");
            }
            throw e;
        } finally {
            for (ChatNode n : nodes) {
                n.close();
            }
        }
    }

    private static int freePort() throws java.io.IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }
}
