package io.gmp4j.bench.net;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ByteProcessor;
import org.HdrHistogram.SingleWriterRecorder;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.concurrent.CountDownLatch;

/**
 * One client of the chat load, behind a line decoder (frames without the '\n').
 *
 * <p>It logs in the way the chat servers expect ({@code *** choose a nickname:}, then its
 * nick {@code u<index>}, then its own {@code *** u<index> joined lobby}) and then reads chat
 * lines {@code [lobby] u<sender>: <seq> <sendNanos> <filler>}. Every client is a receiver:
 * for each sender it expects the sequence numbers 0, 1, 2, ... in order (a lost, duplicated
 * or reordered line fails the run) and records each line's latency from its send timestamp.
 * Clients {@code 0 .. senders-1} also send: each keeps at most {@code maxInFlight} of its own
 * lines in flight, a line being acknowledged when the server delivers it back to its sender
 * (every line goes to the whole room, sender included). Server notices ({@code *** ...}) are
 * skipped, except the ones that mean the run is broken (a nick taken, a client disconnected).
 *
 * <p>It frames lines itself, in place in the buffers it reads (a line split across two reads
 * is copied once into a per-connection buffer): a line decoder would allocate a slice per
 * line, and at three million lines a second the client's own young collections (10-22 ms every
 * 1.5 s with the decoder) would land in every server's latency tail.
 *
 * <p>All state but the recorder and the latches belongs to the channel's event loop.
 */
final class ChatConnection extends ChannelInboundHandlerAdapter {
    /** The longest line a client accepts from the server. */
    static final int MAX_LINE = 4096;

    /**
     * Latencies in microseconds of the lines this client received, harvested per window
     * (microseconds keep the auto-resized counts arrays small: 3 digits is 1 µs below 2 ms).
     */
    final SingleWriterRecorder latencies = new SingleWriterRecorder(3);

    private enum State { LOGIN, JOINING, READY }

    private final int index;
    private final String nick;
    private final int senders;
    private final int maxInFlight;
    private final byte[] filler;
    private final FirstError errors;
    private final CountDownLatch ready;
    private final CountDownLatch primed;
    private final CountDownLatch sendersDrained;
    private final CountDownLatch allDelivered;

    private ChannelHandlerContext ctx;
    private State state = State.LOGIN;
    /** The start of a line whose end has not arrived yet (allocated on first need), or empty. */
    private ByteBuf partial;
    // receiving
    private final long[] next;
    private long[] expected;
    private boolean deliveredAll;
    // sending (senders only)
    private long seq;
    private int inFlight;
    private boolean sending;
    private boolean stopping;

    ChatConnection(int index, int senders, int maxInFlight, byte[] filler, FirstError errors, CountDownLatch ready,
                   CountDownLatch primed, CountDownLatch sendersDrained, CountDownLatch allDelivered) {
        this.index = index;
        this.nick = "u" + index;
        this.senders = senders;
        this.maxInFlight = maxInFlight;
        this.filler = filler;
        this.errors = errors;
        this.ready = ready;
        this.primed = primed;
        this.sendersDrained = sendersDrained;
        this.allDelivered = allDelivered;
        this.next = new long[senders];
    }

    boolean isSender() {
        return index < senders;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    // ---- driven from the load's thread, run on the event loop

    /** A sender starts sending (after every client is in the room). */
    void start() {
        ctx.channel().eventLoop().execute(() -> {
            sending = true;
            sendMore();
        });
    }

    /** A sender stops sending; it counts {@code sendersDrained} down once its lines are all back. */
    void stop() {
        ctx.channel().eventLoop().execute(() -> {
            stopping = true;
            if (inFlight == 0) {
                sendersDrained.countDown();
            }
        });
    }

    /** Lines this sender sent (call on the event loop, after it drained). */
    long sentOnLoop() {
        return seq;
    }

    /**
     * Tells the receiver how many lines each sender sent; it counts {@code allDelivered} down
     * once it has them all (at once if it has).
     */
    void expect(long[] perSender) {
        ctx.channel().eventLoop().execute(() -> {
            expected = perSender.clone();
            checkDelivered();
        });
    }

    /** Lines received from each sender (call on the event loop). */
    long[] receivedOnLoop() {
        return next.clone();
    }

    // ---- the protocol

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf in = (ByteBuf) msg;
        try {
            int i = in.readerIndex();
            int end = in.writerIndex();
            while (i < end && !errors.isSet()) {
                int nl = in.indexOf(i, end, (byte) '\n');
                if (nl < 0) {
                    keep(in, i, end);
                    break;
                }
                if (partial != null && partial.isReadable()) {
                    if (!fits(nl - i)) {
                        return;
                    }
                    partial.writeBytes(in, i, nl - i);
                    ByteBuf whole = partial;
                    line(whole, whole.readerIndex(), whole.writerIndex());
                    whole.clear();
                } else if (nl - i > MAX_LINE) {
                    fail("a line longer than " + MAX_LINE + " bytes");
                    return;
                } else {
                    line(in, i, nl);
                }
                i = nl + 1;
            }
        } finally {
            in.release();
        }
    }

    /** Keeps the unfinished line {@code in[from, to)} until its end arrives. */
    private void keep(ByteBuf in, int from, int to) {
        if (partial == null) {
            partial = Unpooled.buffer(256, MAX_LINE + 1);
        }
        if (fits(to - from)) {
            partial.writeBytes(in, from, to - from);
        }
    }

    /** False (and the run fails) when {@code more} bytes would make the unfinished line too long. */
    private boolean fits(int more) {
        int have = partial == null ? 0 : partial.readableBytes();
        if (have + more > MAX_LINE) {
            fail("a line longer than " + MAX_LINE + " bytes");
            return false;
        }
        return true;
    }

    /**
     * One line, {@code b[start, end)} without its '\n' (and without a '\r' before it): from
     * {@link #channelRead}'s framing, or a WebSocket text frame ({@link WsLines}).
     */
    void line(ByteBuf b, int start, int end) {
        if (end > start && b.getByte(end - 1) == '\r') {
            end--;
        }
        if (end - start >= 3 && b.getByte(start) == '*' && b.getByte(start + 1) == '*') {
            notice(b.toString(start, end - start, StandardCharsets.UTF_8));
        } else {
            chatLine(b, start, end);
        }
    }

    private void notice(String text) {
        if (text.contains(" is taken") || text.contains("server full") || text.contains("was disconnected")
                || text.contains("shutting down")) {
            fail("the server said: " + text);
        } else if (state == State.LOGIN && text.equals("*** choose a nickname:")) {
            state = State.JOINING;
            ctx.writeAndFlush(ctx.alloc().buffer().writeBytes((nick + "\n").getBytes(StandardCharsets.US_ASCII)),
                    ctx.voidPromise());
        } else if (state == State.JOINING && text.equals("*** " + nick + " joined lobby")) {
            state = State.READY;
            ready.countDown();
        }
    }

    /** {@code [room] u<sender>: <seq> <nanos> <filler>}. */
    private void chatLine(ByteBuf line, int start, int end) {
        long now = System.nanoTime();
        int i = start;
        int close = line.forEachByte(i, end - i, b -> b != ']');
        if (close < 0 || close + 3 >= end || line.getByte(close + 1) != ' ' || line.getByte(close + 2) != 'u') {
            fail("not a chat line: " + text(line, start, end));
            return;
        }
        i = close + 3;
        long from = 0;
        int digits = 0;
        for (; i < end && isDigit(line.getByte(i)); i++, digits++) {
            from = from * 10 + (line.getByte(i) - '0');
        }
        if (digits == 0 || i + 2 >= end || line.getByte(i) != ':' || line.getByte(i + 1) != ' ') {
            fail("not a chat line: " + text(line, start, end));
            return;
        }
        i += 2;
        int sp = line.forEachByte(i, end - i, ByteProcessor.FIND_ASCII_SPACE);
        if (sp < 0) {
            fail("no send time in: " + text(line, start, end));
            return;
        }
        long lineSeq = number(line, i, sp);
        int sp2 = line.forEachByte(sp + 1, end - sp - 1, ByteProcessor.FIND_ASCII_SPACE);
        long sentAt = number(line, sp + 1, sp2 < 0 ? end : sp2);
        if (lineSeq < 0 || sentAt < 0) {
            fail("bad numbers in: " + text(line, start, end));
            return;
        }
        if (from >= senders) {
            fail("a line from u" + from + ", which is not a sender: " + text(line, start, end));
            return;
        }
        int s = (int) from;
        if (lineSeq != next[s]) {
            fail("from u" + s + " expected line " + next[s] + ", got line " + lineSeq
                    + (lineSeq < next[s] ? " (a duplicate or reordered line)" : " (lines lost)"));
            return;
        }
        next[s]++;
        latencies.recordValue(Math.max(0, now - sentAt) / 1_000);
        if (s == index) {
            acknowledged();
        }
        if (expected != null) {
            checkDelivered();
        }
    }

    private void acknowledged() {
        if (next[index] == 1) {
            primed.countDown(); // the first of its lines is back: the load is flowing
        }
        inFlight--;
        if (stopping) {
            if (inFlight == 0) {
                sendersDrained.countDown();
            }
        } else {
            sendMore();
        }
    }

    private void sendMore() {
        if (!sending || stopping) {
            return;
        }
        boolean wrote = false;
        while (inFlight < maxInFlight) {
            String head = seq + " " + System.nanoTime() + " ";
            ByteBuf b = ctx.alloc().buffer(head.length() + filler.length + 1);
            b.writeCharSequence(head, StandardCharsets.US_ASCII);
            b.writeBytes(filler).writeByte('\n');
            ctx.write(b, ctx.voidPromise());
            seq++;
            inFlight++;
            wrote = true;
        }
        if (wrote) {
            ctx.flush();
        }
    }

    private void checkDelivered() {
        if (!deliveredAll && Arrays.equals(next, expected)) {
            deliveredAll = true;
            allDelivered.countDown();
        }
    }

    private static boolean isDigit(byte b) {
        return b >= '0' && b <= '9';
    }

    /** The decimal number in [from, to), or -1 when it is not one. */
    private static long number(ByteBuf b, int from, int to) {
        if (from >= to || to - from > 18) {
            return -1;
        }
        long v = 0;
        for (int i = from; i < to; i++) {
            byte c = b.getByte(i);
            if (!isDigit(c)) {
                return -1;
            }
            v = v * 10 + (c - '0');
        }
        return v;
    }

    private static String text(ByteBuf line, int start, int end) {
        return line.toString(start, end - start, StandardCharsets.UTF_8);
    }

    private void fail(String why) {
        errors.set("chat client " + nick + ": " + why);
        ctx.close();
    }

    @Override
    public void handlerRemoved(ChannelHandlerContext ctx) {
        partial = null; // a heap buffer: nothing to release
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (!errors.isSet()) {
            errors.set("chat client " + nick + ": the server closed the connection (state " + state + ")");
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        fail("error: " + cause);
    }
}
