package io.gmp4j.examples.chat;

import io.gmp4j.DescriptorLimitChild;
import io.gmp4j.GoRuntime;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A child JVM for {@link ChatDescriptorLimitTest} (under {@code ulimit -n 256}): a chat
 * server's accept fails with EMFILE; once descriptors are free again the client whose accept
 * failed and new ones must be served. Prints what it saw; exits 0 when every client was.
 */
public final class ChatDescriptorLimitMain {
    static final int NEW_CLIENTS = 5;

    public static void main(String[] args) throws Exception {
        DescriptorLimitChild child = new DescriptorLimitChild();
        GoRuntime rt = GoRuntime.builder().maxProcs(2).name("chat-emfile").build();
        ChatServer server = ChatServer.start(rt, "127.0.0.1:0", ChatConfig.defaults());
        InetSocketAddress addr = server.address();
        try (ChatClient warm = ChatClient.login(addr, "warmup")) {
            // Every class of the accept path loaded, and of a connection's end: the server
            // closes it after /quit (the client reads its end of stream), with descriptors free.
            warm.send("/quit");
            warm.readToEnd();
        }

        List<Socket> pending = child.connectUntilAcceptFails(addr, "chat: accept error: ");
        child.release();

        int served = 0;
        for (Socket p : pending) { // each waited in the backlog: the server accepts it now
            p.setSoTimeout(15_000);
            BufferedReader in = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            String first = in.readLine(); // SocketTimeoutException if the server never accepts it
            served += first != null && first.startsWith("*** welcome to gmp4j chat") ? 1 : 0;
            p.close();
        }
        List<ChatClient> clients = new ArrayList<>();
        for (int i = 0; i < NEW_CLIENTS; i++) {
            clients.add(ChatClient.login(addr, "after" + i));
            served++;
        }
        for (ChatClient c : clients) {
            c.close();
        }
        boolean all = DescriptorLimitChild.reportServed(served, pending.size() + NEW_CLIENTS);
        long t0 = System.nanoTime();
        server.close();
        System.out.println("stopped: " + server.awaitStopped(Duration.ofSeconds(10)) + " in "
                + (System.nanoTime() - t0) / 1_000_000 + " ms");
        rt.close();
        System.exit(all ? 0 : 1);
    }
}
