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

/**
 * A plain blocking TCP client for the tests (platform threads, java.net): a {@link LineClient}
 * over a socket whose every read times out after {@link TestSupport#TIMEOUT_S}.
 */
final class ChatClient extends LineClient<IOException> {
    final Socket socket;
    final BufferedReader in;
    final OutputStream out;

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
        return login(addr, nick, 0);
    }

    /** As {@link #login(InetSocketAddress, String)}, with SO_RCVBUF {@code receiveBuffer} when it is > 0. */
    static ChatClient login(InetSocketAddress addr, String nick, int receiveBuffer) throws IOException {
        ChatClient c = new ChatClient(addr, receiveBuffer);
        c.logIn(nick);
        return c;
    }

    @Override
    void send(String line) throws IOException {
        out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    void sendRaw(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    /** The next line, or null at end of stream (a reset counts as the end). */
    @Override
    String receive() throws IOException {
        try {
            return in.readLine();
        } catch (SocketTimeoutException e) {
            failNoLine();
            return null;
        } catch (java.net.SocketException e) {
            return null; // connection reset
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
