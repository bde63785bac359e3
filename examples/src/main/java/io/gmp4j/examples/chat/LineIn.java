package io.gmp4j.examples.chat;

import io.gmp4j.net.Conn;
import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * Lines from a connection, at most {@code maxLine} bytes each (without the {@code \r\n}).
 * Unlike {@link io.gmp4j.net.Io.LineReader}, which fails for good on an over-long line (Go's
 * {@code bufio.Scanner}: "token too long"), an over-long line is skipped up to its {@code \n}
 * and reported as {@link #TOO_LONG}, and the next line is read as usual: a chat refuses the
 * line and keeps the connection. Bytes are decoded as UTF-8 with U+FFFD for invalid input
 * (what {@code new String(bytes, UTF_8)} does), and control characters other than tab become
 * U+FFFD too, so nobody can send terminal escape sequences to the room. Not thread-safe.
 */
final class LineIn {
    /** Returned (by identity) for a line over the maximum; its bytes were dropped. */
    static final String TOO_LONG = new String("<line too long>");

    private final Conn conn;
    private final int maxLine;
    private final byte[] buf;
    private int start;
    private int end;
    /** Where the search for {@code \n} resumes. */
    private int scanned;
    /** Inside an over-long line: dropping bytes up to the next {@code \n}. */
    private boolean discarding;

    LineIn(Conn conn, int maxLine) {
        if (maxLine < 1) {
            throw new IllegalArgumentException("maxLine must be >= 1, got " + maxLine);
        }
        this.conn = conn;
        this.maxLine = maxLine;
        this.buf = new byte[Math.max(maxLine + 2, 1024)]; // + 2: room for "\r\n"
    }

    /** The next line, {@link #TOO_LONG}, or null at end of stream. */
    String readLine() throws IOException {
        while (true) {
            for (int i = scanned; i < end; i++) {
                if (buf[i] == '\n') {
                    int from = start;
                    start = i + 1;
                    scanned = start;
                    if (discarding) {
                        discarding = false;
                        return TOO_LONG;
                    }
                    int len = i - from;
                    if (len > 0 && buf[i - 1] == '\r') {
                        len--;
                    }
                    return len > maxLine ? TOO_LONG : decode(from, len);
                }
            }
            scanned = end;
            if (discarding) {
                start = end = scanned = 0; // drop what was read of the long line
            } else if (end - start > maxLine + 1) { // no '\n' within max + '\r': too long
                discarding = true;
                start = end = scanned = 0;
            } else if (end == buf.length && start > 0) { // compact
                System.arraycopy(buf, start, buf, 0, end - start);
                end -= start;
                scanned = end;
                start = 0;
            }
            int n = conn.read(buf, end, buf.length - end);
            if (n < 0) {
                if (discarding) {
                    discarding = false;
                    return TOO_LONG;
                }
                if (start == end) {
                    return null;
                }
                int from = start;
                start = scanned = end; // a last line without '\n'
                return end - from > maxLine ? TOO_LONG : decode(from, end - from);
            }
            end += n;
        }
    }

    private String decode(int from, int len) {
        String s = new String(buf, from, len, StandardCharsets.UTF_8);
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            if (Character.isISOControl(ch) && ch != '\t') {
                return sanitize(s);
            }
        }
        return s;
    }

    private static String sanitize(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            b.append(Character.isISOControl(ch) && ch != '\t' ? '\uFFFD' : ch);
        }
        return b.toString();
    }
}
