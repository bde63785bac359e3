package io.gmp4j.examples.chat;

import io.gmp4j.net.Conn;
import java.io.IOException;
import java.time.Instant;

/** A chat {@link Link} over a TCP connection: lines end in {@code '\n'} ({@link LineIn}). */
final class TcpLink implements Link {
    private final Conn conn;
    private final LineIn in;

    TcpLink(Conn conn, int maxLine) {
        this.conn = conn;
        this.in = new LineIn(conn, maxLine);
    }

    @Override
    public String readLine() throws IOException {
        return in.readLine();
    }

    @Override
    public void setReadDeadline(Instant t) {
        conn.setReadDeadline(t);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        conn.write(b, off, len);
    }

    @Override
    public void closeWrite() throws IOException {
        conn.closeWrite();
    }

    /** A TCP close sends what was written before the FIN. */
    @Override
    public void end() {
        conn.close();
    }

    @Override
    public void close() {
        conn.close();
    }

    @Override
    public String peer() {
        return String.valueOf(conn.remoteAddress());
    }
}
