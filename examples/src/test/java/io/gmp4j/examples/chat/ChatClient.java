package io.gmp4j.examples.chat;

import io.gmp4j.TestSupport;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * A plain blocking TCP client for the tests (platform threads, java.net). Every read has
 * {@link TestSupport#TIMEOUT_S} as its safety net: a test that needs it has already failed.
 */
final class ChatClient implements AutoCloseable {
    final Socket socket;
    final BufferedReader in;
    final OutputStream out;
    /** Every line read, in order. */
    final List<String> seen = new ArrayList<>();

    ChatClient(InetSocketAddress addr) throws IOException {
        this(addr, 0);
    }

    /** {@code receiveBuffer} > 0: SO_RCVBUF set before connecting (a small window). */
    ChatClient(InetSocketAddress addr, int receiveBuffer) throws IOException {
        socket = new Socket();
        if (receiveBuffer > 0) {
            socket.setReceiveBufferSize(receiveBuffer);
        }
        socket.connect(addr, (int) (TestSupport.TIMEOUT_S * 1000));
        socket.setSoTimeout((int) (TestSupport.TIMEOUT_S * 1000));
        in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
        out = socket.getOutputStream();
    }

    /** Connects and logs in as {@code nick}; returns once in the lobby. */
    static ChatClient login(InetSocketAddress addr, String nick) throws IOException {
        ChatClient c = new ChatClient(addr);
        c.await(l -> l.equals("*** choose a nickname:"));
        c.send(nick);
        c.await(l -> l.equals("*** " + nick + " joined lobby"));
        return c;
    }

    void send(String line) throws IOException {
        out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    void sendRaw(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    /** The next line, or null at end of stream (a reset counts as the end). */
    String readLine() throws IOException {
        try {
            String l = in.readLine();
            if (l != null) {
                seen.add(l);
            }
            return l;
        } catch (SocketTimeoutException e) {
            fail("no line within " + TestSupport.TIMEOUT_S + " s; seen: " + tail());
            return null;
        } catch (java.net.SocketException e) {
            return null; // connection reset
        }
    }

    /** Reads until a line matches (returning it); fails at end of stream. */
    String await(Predicate<String> p) throws IOException {
        while (true) {
            String l = readLine();
            if (l == null) {
                fail("end of stream before the expected line; seen: " + tail());
            }
            if (p.test(l)) {
                return l;
            }
        }
    }

    /** Reads to the end of stream, returning the lines read. */
    List<String> readToEnd() throws IOException {
        List<String> rest = new ArrayList<>();
        for (String l; (l = readLine()) != null; ) {
            rest.add(l);
        }
        return rest;
    }

    String tail() {
        return seen.subList(Math.max(0, seen.size() - 10), seen.size()).toString();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
