package io.gmp4j.bench.net;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

import java.nio.ByteBuffer;
import java.util.concurrent.CountDownLatch;
import java.util.zip.CRC32C;

/**
 * One connection of the bulk load: it writes a endless stream (slices of a shared random
 * block) as fast as the channel stays writable, and at the same time reads the echo back,
 * counting the bytes and folding both directions into CRC-32C checksums. After
 * {@link #stop} it writes nothing more and counts {@code finished} down once every byte it
 * sent is back. All state but the volatile counter belongs to the channel's event loop.
 */
final class BulkConnection extends ChannelInboundHandlerAdapter {
    /** Bytes per write. */
    static final int CHUNK = 16 * 1024;

    private final int id;
    private final ByteBuf block;
    private final FirstError errors;
    private final CountDownLatch primed;
    private final CountDownLatch finished;
    private final CRC32C sentCrc = new CRC32C();
    private final CRC32C receivedCrc = new CRC32C();
    private ChannelHandlerContext ctx;
    private long sent;
    private boolean stopping;
    private boolean done;
    /** Echoed bytes so far: written by the event loop only, read by the driver per window. */
    private volatile long received;

    /**
     * {@code block}: the data to send, repeated (its size a multiple of {@link #CHUNK});
     * {@code primed} counts down at the first echoed bytes, {@code finished} once {@link #stop}
     * and the echo caught up.
     */
    BulkConnection(int id, ByteBuf block, FirstError errors, CountDownLatch primed, CountDownLatch finished) {
        if (block.readableBytes() % CHUNK != 0) {
            throw new IllegalArgumentException("block size must be a multiple of " + CHUNK);
        }
        this.id = id;
        this.block = block;
        this.errors = errors;
        this.primed = primed;
        this.finished = finished;
    }

    long received() {
        return received;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        pump();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        pump();
    }

    /** Writes chunks while the channel is writable (below its high watermark), then flushes. */
    private void pump() {
        boolean wrote = false;
        while (!stopping && ctx.channel().isWritable()) {
            int off = (int) (sent % block.readableBytes());
            sentCrc.update(block.nioBuffer(off, CHUNK));
            sent += CHUNK;
            ctx.write(block.retainedSlice(off, CHUNK), ctx.voidPromise());
            wrote = true;
        }
        if (wrote) {
            ctx.flush();
        }
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ByteBuf in = (ByteBuf) msg;
        try {
            int n = in.readableBytes();
            if (received + n > sent) {
                fail((received + n - sent) + " more bytes came back than were sent");
                return;
            }
            for (ByteBuffer b : in.nioBuffers()) {
                receivedCrc.update(b);
            }
            if (received == 0 && n > 0) {
                primed.countDown(); // the echo is flowing
            }
            received += n;
            checkFinished();
        } finally {
            in.release();
        }
    }

    /** Stops writing; the connection finishes once the echo caught up. */
    void stop() {
        ctx.channel().eventLoop().execute(() -> {
            stopping = true;
            checkFinished();
        });
    }

    /**
     * Runs on the event loop after {@link #stop}'s latch: the counts and checksums of both
     * directions, or why they differ.
     */
    String verify() {
        if (sent != received) {
            return "bulk connection " + id + ": sent " + sent + " bytes, " + received + " came back";
        }
        if (sentCrc.getValue() != receivedCrc.getValue()) {
            return "bulk connection " + id + ": " + sent + " bytes each way but the CRC-32C differs (sent "
                    + Long.toHexString(sentCrc.getValue()) + ", got " + Long.toHexString(receivedCrc.getValue()) + ")";
        }
        return null;
    }

    long sentOnLoop() {
        return sent;
    }

    private void checkFinished() {
        if (stopping && !done && received == sent) {
            done = true;
            finished.countDown();
        }
    }

    private void fail(String why) {
        errors.set("bulk connection " + id + ": " + why);
        if (!done) {
            done = true;
            finished.countDown();
        }
        ctx.close();
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (!done) {
            fail("the server closed the connection after " + received + " of " + sent + " bytes came back");
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        fail("error: " + cause);
    }
}
