package io.gmp4j.examples.chat;

import io.gmp4j.net.Conn;
import io.gmp4j.net.Io;
import java.io.IOException;

/**
 * Lines from a connection, at most {@code maxLine} bytes each (without the {@code \r\n}): an
 * {@link Io.LineReader} that skips an over-long line and reports it as {@link #TOO_LONG}, so a
 * chat refuses the line and keeps the connection. Bytes are decoded as UTF-8 with U+FFFD for
 * invalid input, and control characters other than tab become U+FFFD too, so nobody can send
 * terminal escape sequences to the room. Not thread-safe.
 */
final class LineIn {
    /** Returned (by identity) for a line over the maximum; its bytes were dropped. */
    static final String TOO_LONG = Io.LineReader.TOO_LONG;

    private final Io.LineReader lines;

    LineIn(Conn conn, int maxLine) {
        this.lines = new Io.LineReader(conn, maxLine, true);
    }

    /** The next line, {@link #TOO_LONG}, or null at end of stream. */
    String readLine() throws IOException {
        String s = lines.readLine();
        return s == null || s == TOO_LONG ? s : clean(s);
    }

    /** {@code s} with every control character but tab replaced by U+FFFD (itself when it has none). */
    static String clean(String s) {
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
