package io.gmp4j.net;

import io.gmp4j.runtime.Waiter;
import io.netty.buffer.ByteBuf;

import java.io.IOException;
import java.util.ArrayList;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongConsumer;

/**
 * {@link Io#copy} between two connections of one event loop, done by the loop: what Go's
 * {@code io.Copy} does with {@code splice(2)} when both ends are TCP connections. The bytes a
 * read of {@code src} brings in are written to {@code dst} in the same loop turn, so a proxy
 * pays no goroutine wake-up, no park and no hand-off per message; the copying goroutine parks
 * until the relay ends. This is how a Netty relay proxy works, behind Go's blocking API.
 *
 * <h2>What stays as with the goroutine's copy</h2>
 * <ul>
 *   <li>Order: bytes {@code src} had buffered go first (the start, on the loop, takes them
 *       before it forwards anything newer), and the relay holds {@code dst}'s write lock, so
 *       no other write interleaves and no goroutine write overtakes one still queued.</li>
 *   <li>Memory: when {@code dst} stops being writable (its outbound buffer over the high
 *       watermark) the loop stops reading {@code src} until it drains, so a slow
 *       destination costs one read burst over the watermark, as a goroutine's copy does (and,
 *       at {@code src}'s FIN, what its socket still held: Netty then reads to the end).</li>
 *   <li>Outcomes: the relay only moves bytes. It ends at {@code src}'s end of input, and at
 *       anything else that changes the answer a read of {@code src} or a write to {@code dst}
 *       would give: a close or failure of either, a deadline set on either. The goroutine
 *       then goes on with the plain read/write loop, which meets that state and returns or
 *       throws exactly as it would have ({@link Io#copy}).</li>
 * </ul>
 *
 * <h2>Protocol</h2>
 * The goroutine registers the relay on both connections under each one's lock, checking that
 * neither is in a state the relay cannot serve (closed, failed, ended, a deadline, another
 * reader); every event that ends a relay sets its flag under the same lock and then calls
 * {@link #finish}, so either the registration sees the flag or the event sees the relay.
 * {@link #finish} is idempotent and queues {@link #endOnLoop} behind {@link #startOnLoop} on
 * the loop; only the loop forwards bytes ({@link #live} is loop-confined), and the end wakes
 * the goroutine once.
 */
final class Relay {
    /** On by default; {@code -Dgmp4j.netpoll.relay=false} makes every copy a goroutine's read/write loop. */
    static volatile boolean enabled = io.gmp4j.Tunable.NETPOLL_RELAY.onUnlessFalse();

    final Conn src;
    final Conn dst;
    private final LongConsumer progress;
    private final Waiter done = Waiter.current();
    private final AtomicBoolean ending = new AtomicBoolean();
    /** Forwarding: set by the start and cleared by the end, both on the loop; read only there. */
    private boolean live;
    /** Bytes forwarded; written on the loop, read by the goroutine after the end woke it. */
    private long total;

    private Relay(Conn dst, Conn src, LongConsumer progress) {
        this.dst = dst;
        this.src = src;
        this.progress = progress;
    }

    /**
     * Copies {@code src} to {@code dst} on their loop until the relay ends (see the class
     * comment); returns the bytes it forwarded, 0 when it could not start (different loops, a
     * deadline, the path turned off, ...). The caller then goes on with its own loop.
     */
    static long run(Conn dst, Conn src, LongConsumer progress) throws IOException {
        if (!enabled || dst == src || dst.ch.eventLoop() != src.ch.eventLoop()) {
            return 0;
        }
        dst.writer.acquireWrite(); // held for the whole relay: no other write interleaves
        try {
            Relay r = new Relay(dst, src, progress);
            if (!src.reader.attachRelay(r)) {
                return 0; // registered nowhere: nothing can end it
            }
            if (!dst.writer.attachRelay(r)) {
                // src's events may already be ending it: end it the one way, and wait for that.
                r.finish();
            } else {
                try {
                    src.ch.eventLoop().execute(r::startOnLoop);
                } catch (RejectedExecutionException e) {
                    r.finish(); // the runtime is closing: the plain loop reports it
                }
            }
            src.poller.park(r.done, "IO wait (relay)", false, 0);
            return r.total; // published by the end's wake
        } finally {
            dst.writer.releaseWrite();
        }
    }

    /** On the loop: forward what {@code src} buffered, then everything it reads, until the end. */
    private void startOnLoop() {
        if (ending.get()) {
            return; // the end is queued behind us
        }
        live = true;
        ArrayList<ByteBuf> buffered = src.reader.takeInboundForRelay();
        for (ByteBuf buf : buffered) {
            forward(buf);
        }
        dst.ch.flush();
        src.ch.config().setAutoRead(dst.ch.isWritable());
    }

    /**
     * On the loop, from {@code src}'s handler: true if the relay took {@code buf}. Once the end
     * is asked for, bytes stay with {@code src} for the goroutine's own loop: after a close or a
     * deadline on {@code dst}, that loop's write must be the one to fail on them.
     */
    boolean offer(ByteBuf buf) {
        if (!live || ending.get()) {
            return false;
        }
        if (!buf.isReadable()) {
            buf.release();
            return true;
        }
        forward(buf);
        return true;
    }

    private void forward(ByteBuf buf) {
        int n = buf.readableBytes();
        total += n;
        src.reader.relayedBytes += n; // statistics for tests; only the loop writes them
        dst.writer.writeOnLoop(buf); // ownership passes to Netty
        if (progress != null) {
            progress.accept(n);
        }
        if (!dst.ch.isWritable()) {
            // dst's channelWritabilityChanged turns it on again. Netty's epoll read loop ends
            // its burst regardless (up to maxMessagesPerRead buffers), and after the peer's FIN
            // it reads the socket to its end whatever autoRead says: those are the excess.
            src.ch.config().setAutoRead(false);
        }
    }

    /** On the loop: {@code src}'s read burst ended. */
    void readComplete() {
        if (live) {
            dst.ch.flush();
        }
    }

    /** On the loop: {@code dst} drained below its low watermark. */
    void dstWritable() {
        if (live) {
            src.ch.config().setAutoRead(true);
        }
    }

    /** Ends the relay (any thread, any number of times): the goroutine wakes and goes on itself. */
    void finish() {
        if (!ending.compareAndSet(false, true)) {
            return;
        }
        try {
            src.ch.eventLoop().execute(this::endOnLoop);
        } catch (RejectedExecutionException e) {
            // The loop is shutting down and closing its channels: nothing more to forward.
            src.detachRelay(this);
            dst.detachRelay(this);
            done.wake();
        }
    }

    /** On the loop, after the start: stop forwarding, leave {@code src} reading on request again, wake the goroutine. */
    private void endOnLoop() {
        live = false;
        src.detachRelay(this);
        dst.detachRelay(this);
        dst.writer.fenceRelayWrites();
        dst.ch.flush();
        if (src.ch.isActive()) {
            src.ch.config().setAutoRead(false);
        }
        src.reader.stopReadingAfterRelay();
        done.wake();
    }
}
