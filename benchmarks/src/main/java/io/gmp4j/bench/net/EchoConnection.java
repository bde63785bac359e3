package io.gmp4j.bench.net;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.SingleWriterRecorder;

import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * One connection of the echo load, in a closed loop: it sends a request of
 * {@link EchoLoad#REQUEST} bytes, waits until the same bytes came back, records the round
 * trip and sends the next. Each request's bytes depend on the connection and the request
 * number, so an answer to another request, or from another connection, does not match.
 * Everything but {@link #stop} and the counters' final reads runs on the channel's event loop.
 */
final class EchoConnection extends ChannelInboundHandlerAdapter {
    /** Round trips in nanoseconds, written by the event loop, harvested by the driver. */
    final SingleWriterRecorder latencies = new SingleWriterRecorder(3);

    private final int id;
    private final FirstError errors;
    private final CountDownLatch primed;
    private final CountDownLatch finished;
    private ChannelHandlerContext ctx;
    /** The number of the request in flight (or the next one). */
    private long seq;
    /** Bytes of the current answer seen so far; -1 while no request is in flight. */
    private int pos = -1;
    private long sentAt;
    private boolean stopping;
    private boolean done;
    /** Paused ({@link #pause}): no request is sent until {@link #resume}. */
    private boolean paused;
    /** Run once no request is in flight while paused; null otherwise. */
    private Runnable onIdle;
    /** Requests sent and answers verified: equal once {@link #finished} counted this one down. */
    private volatile long sent;
    private volatile long answered;

    /** {@code primed} counts down at the first answer, {@code finished} after {@link #stop}'s last one. */
    EchoConnection(int id, FirstError errors, CountDownLatch primed, CountDownLatch finished) {
        this.id = id;
        this.errors = errors;
        this.primed = primed;
        this.finished = finished;
    }

    /** Byte {@code i} of request {@code seq} on connection {@code id}. */
    static byte pattern(int id, long seq, int i) {
        return (byte) (id * 131 + seq * 31 + i * 7);
    }

    /** The round trips {@code conns} recorded since the last harvest, together. */
    static Histogram harvest(List<EchoConnection> conns) {
        Histogram h = new Histogram(3);
        for (EchoConnection c : conns) {
            h.add(c.latencies.getIntervalHistogram());
        }
        return h;
    }

    long sent() {
        return sent;
    }

    long answered() {
        return answered;
    }

    /** Asks the connection to finish: it sends nothing more and counts down once its answer is in. */
    void stop() {
        ctx.channel().eventLoop().execute(() -> {
            stopping = true;
            if (pos < 0) { // paused or between requests
                finish();
            }
        });
    }

    /**
     * Pauses the loop: the request in flight, if any, is answered, nothing more is sent until
     * {@link #resume}, and {@code onIdle} runs (on the event loop) once nothing is in flight.
     */
    void pause(Runnable onIdle) {
        ctx.channel().eventLoop().execute(() -> {
            paused = true;
            if (pos < 0) {
                onIdle.run();
            } else {
                this.onIdle = onIdle;
            }
        });
    }

    /** Resumes a paused loop: it sends its next request. */
    void resume() {
        ctx.channel().eventLoop().execute(() -> {
            paused = false;
            if (pos < 0 && !stopping && !done) {
                send();
            }
        });
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        send();
    }

    private void send() {
        ByteBuf b = ctx.alloc().directBuffer(EchoLoad.REQUEST);
        for (int i = 0; i < EchoLoad.REQUEST; i++) {
            b.writeByte(pattern(id, seq, i));
        }
        pos = 0;
        sent++;
        sentAt = System.nanoTime();
        ctx.writeAndFlush(b, ctx.voidPromise());
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf in = (ByteBuf) msg;
        try {
            while (in.isReadable()) {
                if (pos < 0) {
                    fail(in.readableBytes() + " byte(s) arrived with no request in flight (after " + answered
                            + " answers): a duplicated or unasked-for answer");
                    return;
                }
                byte got = in.readByte();
                byte want = pattern(id, seq, pos);
                if (got != want) {
                    fail("request " + seq + " byte " + pos + ": got " + got + ", sent " + want);
                    return;
                }
                if (++pos == EchoLoad.REQUEST) {
                    latencies.recordValue(System.nanoTime() - sentAt);
                    if (answered++ == 0) {
                        primed.countDown();
                    }
                    seq++;
                    pos = -1;
                    if (stopping) {
                        finish();
                    } else if (paused) {
                        Runnable idle = onIdle;
                        onIdle = null;
                        if (idle != null) {
                            idle.run();
                        }
                    } else {
                        send();
                    }
                }
            }
        } finally {
            in.release();
        }
    }

    private void finish() {
        if (!done) {
            done = true;
            finished.countDown();
        }
    }

    private void fail(String why) {
        errors.set("echo connection " + id + ": " + why);
        finish();
        ctx.close();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (!done) {
            fail("the server closed the connection after " + answered + " answers");
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        fail("error: " + cause);
    }
}
