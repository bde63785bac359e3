package io.gmp4j.net;

import io.gmp4j.runtime.Scheduler;
import io.gmp4j.runtime.Waiter;

import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongConsumer;

/**
 * Go's {@code io} and {@code bufio} helpers that network code leans on: {@link #copy},
 * a two-way {@link #proxy}, and a {@link LineReader} with a maximum line length. For a buffered
 * writer, wrap {@link Conn#outputStream()} in a {@link java.io.BufferedOutputStream}.
 */
public final class Io {
    /** Go's io.Copy buffer size. */
    static final int COPY_BUFFER = 32 * 1024;

    private Io() {
    }

    /**
     * Go's {@code io.Copy}: copies {@code src} to {@code dst} until {@code src}'s end of stream;
     * returns the bytes copied. Throws what a read of {@code src} or a write to {@code dst}
     * would throw. Does not half-close {@code dst}.
     *
     * <p>When both connections are served by one event loop (a proxy's upstream dialled with
     * {@link Net#dial(java.net.SocketAddress, java.time.Duration, Conn)} next to its client), the loop itself
     * forwards the bytes, as Go's {@code io.Copy} splices two TCP connections in the kernel:
     * no goroutine wakes per message. Deadlines, closes and failures are honoured as in the plain
     * loop ({@code -Dgmp4j.netpoll.relay=false} turns this off).
     */
    public static long copy(Conn dst, Conn src) throws IOException {
        return copy(dst, src, null);
    }

    /**
     * {@link #copy(Conn, Conn)}, calling {@code progress} with each chunk's byte count once it
     * is handed to {@code dst} (a proxy's byte counters and idle clock). When the event loop
     * forwards the bytes, {@code progress} runs on the loop: keep it short, non-blocking, and
     * free of exceptions.
     */
    public static long copy(Conn dst, Conn src, LongConsumer progress) throws IOException {
        long total = Relay.run(dst, src, progress);
        byte[] buf = new byte[COPY_BUFFER];
        int n;
        while ((n = src.read(buf, 0, buf.length)) >= 0) {
            dst.write(buf, 0, n);
            total += n;
            if (progress != null) {
                progress.accept(n);
            }
        }
        return total;
    }

    /** {@link #copy(Conn, Conn)} between streams (for example a file and a {@link Conn#outputStream()}). */
    public static long copy(OutputStream dst, InputStream src) throws IOException {
        return src.transferTo(dst);
    }

    /**
     * Copies both ways between {@code a} and {@code b} (a proxy's inner loop): {@code b}'s input
     * to {@code a} in a new goroutine, {@code a}'s input to {@code b} in the caller. Each
     * direction half-closes its destination at EOF ({@link Conn#closeWrite}), so each peer sees
     * the other's EOF. Returns when both directions ended, with the bytes each way
     * ({@code [a->b, b->a]}). The first failure (a reset, a write to a peer gone) closes both
     * connections, so the other direction cannot wait for ever on a silent peer, and is thrown;
     * after a clean end both stay open for the caller to close.
     */
    public static long[] proxy(Conn a, Conn b) throws IOException {
        Waiter done = Waiter.current();
        long[] counts = new long[2];
        AtomicReference<Throwable> failed = new AtomicReference<>();
        Runnable back = () -> {
            try {
                counts[1] = copy(a, b);
                a.closeWrite();
            } catch (Throwable t) {
                failBoth(failed, t, a, b);
            } finally {
                done.wake(); // its one wake: the park below
            }
        };
        if (!Scheduler.goFromCurrent(back)) {
            a.poller.sched.go(back);
        }
        try {
            counts[0] = copy(b, a);
            b.closeWrite();
        } catch (IOException | RuntimeException | Error e) {
            failBoth(failed, e, a, b);
        }
        // Wait for the other direction. The wake publishes counts[1] and failed (Waiter.wake's
        // release on the goroutine's park state, acquire in park).
        a.poller.park(done, "IO wait (proxy)", false, 0);
        Throwable t = failed.get();
        if (t instanceof IOException io) {
            throw io;
        }
        if (t instanceof RuntimeException re) {
            throw re;
        }
        if (t instanceof Error e) {
            throw e;
        }
        return counts;
    }

    /** The first failure of a proxy wins and closes both ends; the other direction then fails as closed. */
    private static void failBoth(AtomicReference<Throwable> failed, Throwable t, Conn a, Conn b) {
        if (failed.compareAndSet(null, t)) {
            a.close();
            b.close();
        }
    }

    /**
     * Go's {@code bufio.Scanner} with {@code ScanLines}: reads lines ended by {@code \n} (a
     * preceding {@code \r} is dropped), at most {@code maxLine} bytes each. Not thread-safe.
     *
     * <p>An over-long line either fails the reader for good (Go's "bufio.Scanner: token too
     * long"), or, when made with {@code skipTooLong}, is dropped up to its {@code \n} and
     * reported as {@link #TOO_LONG}, and reading goes on: what a line-protocol server needs to
     * refuse one line and keep the connection.
     */
    public static final class LineReader {
        /** Returned (compare by identity) for an over-long line that was skipped. */
        public static final String TOO_LONG = new String("<line too long>");

        private final InputStream in;
        private final int maxLine;
        private final boolean skipTooLong;
        private byte[] buf;
        private int start;
        private int end;
        private boolean eof;
        /** Inside an over-long line being skipped: dropping bytes up to the next {@code \n}. */
        private boolean discarding;

        /** Reads lines from {@code in}, failing on a line longer than {@code maxLine} bytes. */
        public LineReader(InputStream in, int maxLine) {
            this(in, maxLine, false);
        }

        /**
         * Reads lines from {@code in}; a line longer than {@code maxLine} bytes fails the reader,
         * or with {@code skipTooLong} is skipped and returned as {@link #TOO_LONG}.
         */
        public LineReader(InputStream in, int maxLine, boolean skipTooLong) {
            if (maxLine < 1) {
                throw new IllegalArgumentException("maxLine must be >= 1, got " + maxLine);
            }
            this.in = in;
            this.maxLine = maxLine;
            this.skipTooLong = skipTooLong;
            this.buf = new byte[Math.min(4096, maxLine + 2)];
        }

        /** Reads lines from a connection, with {@code skipTooLong} as above. */
        public LineReader(Conn c, int maxLine, boolean skipTooLong) {
            this(c.inputStream(), maxLine, skipTooLong);
        }

        /** Reads lines from a connection. */
        public LineReader(Conn c, int maxLine) {
            this(c.inputStream(), maxLine);
        }

        /**
         * The next line without its terminator (decoded as UTF-8), or null at EOF. A last line
         * without {@code \n} is returned as a line.
         *
         * @return the line, {@link #TOO_LONG} for a skipped over-long line, or null at EOF
         * @throws IOException with Go's message "bufio.Scanner: token too long" for a line over
         *                     the maximum when not skipping (the reader is unusable after it)
         */
        public String readLine() throws IOException {
            int scanned = start;
            while (true) {
                for (int i = scanned; i < end; i++) {
                    if (buf[i] == '\n') {
                        int from = start;
                        start = i + 1;
                        if (discarding) {
                            discarding = false;
                            return TOO_LONG;
                        }
                        int lineEnd = i > from && buf[i - 1] == '\r' ? i - 1 : i;
                        if (lineEnd - from > maxLine) {
                            return tooLong();
                        }
                        return new String(buf, from, lineEnd - from, StandardCharsets.UTF_8);
                    }
                }
                scanned = end;
                if (discarding) {
                    start = end = scanned = 0; // drop what was read of the long line
                } else if (end - start > maxLine + 1) { // + 1: room for a '\r' before the '\n'
                    if (tooLong() != null) {
                        discarding = true;
                        start = end = scanned = 0;
                    }
                }
                if (eof) {
                    if (discarding) {
                        discarding = false;
                        return TOO_LONG;
                    }
                    if (start == end) {
                        return null;
                    }
                    String s = new String(buf, start, end - start, StandardCharsets.UTF_8);
                    start = end;
                    return s;
                }
                if (end == buf.length) {
                    if (start > 0) { // compact
                        System.arraycopy(buf, start, buf, 0, end - start);
                        end -= start;
                        scanned -= start;
                        start = 0;
                    } else {
                        buf = Arrays.copyOf(buf, Math.min(buf.length * 2, maxLine + 2));
                    }
                }
                int n = in.read(buf, end, buf.length - end);
                if (n < 0) {
                    eof = true;
                } else {
                    end += n;
                }
            }
        }

        /** An over-long line: {@link #TOO_LONG} when skipping, else Go's error. */
        private String tooLong() throws IOException {
            if (!skipTooLong) {
                throw new IOException("bufio.Scanner: token too long");
            }
            return TOO_LONG;
        }

        /** Reads exactly {@code n} more bytes (buffered ones first), for line-then-body protocols. */
        public byte[] readFully(int n) throws IOException {
            byte[] out = new byte[n];
            int k = Math.min(n, end - start);
            System.arraycopy(buf, start, out, 0, k);
            start += k;
            while (k < n) {
                int r = in.read(out, k, n - k);
                if (r < 0) {
                    throw new EOFException("unexpected EOF: " + (n - k) + " bytes missing");
                }
                k += r;
            }
            return out;
        }
    }
}
