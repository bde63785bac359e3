package io.gmp4j.examples.chat;

import io.gmp4j.net.Conn;
import java.io.IOException;
import java.util.Arrays;

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

    /** The batch's bytes, one after the other (grown as needed; owned by the writer). */
    private byte[] buf = new byte[4096];

    @Override
    public void write(Client.Wire[] lines, int n) throws IOException {
        int len = 0;
        for (int i = 0; i < n; i++) {
            byte[] b = lines[i].bytes();
            if (len + b.length > buf.length) {
                buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + b.length));
            }
            System.arraycopy(b, 0, buf, len, b.length);
            len += b.length;
        }
        conn.write(buf, 0, len);
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
