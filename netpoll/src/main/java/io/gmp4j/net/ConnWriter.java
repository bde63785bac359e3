package io.gmp4j.net;

import io.gmp4j.runtime.ShortLock;
import io.gmp4j.runtime.Waiter;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.socket.DuplexChannel;

import java.io.IOException;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The output side of one {@link Conn}: the write lock that keeps whole writes apart, the
 * goroutine's own writes to the socket ({@link DirectWriter}), the hand-off of the rest to
 * the loop, the park on the outbound buffer's high watermark, the write deadline, the shut of
 * the output ({@link #closeWrite}), and the {@link Relay} writing into the connection.
 *
 * <h2>Invariants</h2>
 * <ul>
 *   <li>Only the holder of the write lock ({@code writing}, under the connection's lock)
 *       hands bytes over, by itself or to the loop; a relay into this connection holds it for
 *       the relay's whole life.</li>
 *   <li>Bytes keep their order: a direct write runs only while {@code loopWritesInFlight} is
 *       0, that is while every buffer handed to the loop (and a relay's writes, through
 *       {@link #fenceRelayWrites}) has reached the kernel.</li>
 *   <li>A goroutine's hand-off happens only while the channel is writable (checked under the
 *       lock, see {@link #awaitWritable}), so its writes leave at most about
 *       {@link Net#HIGH_WATER} plus one {@link #CHUNK} pending.</li>
 *   <li>A waiter is in {@code writers} or {@code lockQueue} only while its thread is parked or
 *       about to park; every waker removes it under the connection's lock and wakes it after
 *       unlocking ({@link Waiters}).</li>
 * </ul>
 */
final class ConnWriter {
    /** The largest buffer one write hands to the loop. */
    static final int CHUNK = 64 * 1024;

    private final Conn conn;
    /** The connection's lock, which guards the fields below and the connection's state. */
    private final ShortLock lock;
    private final Channel ch;
    /** The goroutine's own path to the socket, or null where every write goes through the loop. */
    private final DirectWriter direct;
    /** Writes handed to the loop and not yet completed ({@link #nothingQueuedOnLoop}); used only beside {@link #direct}. */
    private final AtomicInteger loopWritesInFlight = new AtomicInteger();
    private final ChannelFutureListener loopWriteDone = this::loopWriteDone;

    // --- guarded by lock
    /** Writers parked until the channel is writable again. */
    private final ArrayList<Waiter> writers = new ArrayList<>(1);
    /** A write is in progress: Go's fdMutex write lock, so concurrent writes do not interleave. */
    private boolean writing;
    /** Writers waiting for {@link #writing} to clear, first come first served. */
    private final ArrayList<Waiter> lockQueue = new ArrayList<>(1);
    /** This side called {@link Conn#closeWrite}. */
    private boolean writeShut;
    /** The write deadline; a write checks it and parks until it within one hold of the lock. */
    private Deadline deadline = Deadline.NONE;

    /**
     * The waiter of the last write park, reused by the same thread's next one ({@link Waiter#reusable}
     * checks the thread, so a concurrent writer that reads another's waiter here makes its own).
     */
    private Waiter lastWaiter;

    /** The {@link Relay} writing into this connection, if any; {@link #attachRelay} checks the connection's state. */
    private final RelaySlot relay = new RelaySlot();

    // --- statistics for tests: written by the write lock's holder only, volatile for the test's polling
    /** Most outbound bytes seen pending right after a hand-off. */
    volatile long maxPendingSeen;
    /** Times a write parked because the channel was not writable. */
    volatile long writeParks;
    /** Buffers the writing goroutine sent to the socket itself, whole. */
    volatile long directWrites;
    /** Buffers (or their rests) handed to the loop. */
    volatile long loopWrites;

    ConnWriter(Conn conn) {
        this.conn = conn;
        this.lock = conn.lock;
        this.ch = conn.ch;
        this.direct = DirectWriter.open(ch);
    }

    /** The goroutine's own write path for this connection, or null when writes go through the loop. */
    DirectWriter directWriter() {
        return direct;
    }

    // =====================================================================================
    // The goroutine's side
    // =====================================================================================

    /** {@link Conn#write(byte[], int, int)}: all of {@code b[off, off+len)}. */
    void write(byte[] b, int off, int len) throws IOException {
        acquireWrite();
        try {
            while (len > 0) {
                if (!awaitWritable()) {
                    continue;
                }
                boolean socketFull = false;
                if (direct != null && len <= DirectWriter.SCRATCH_BYTES && nothingQueuedOnLoop()) {
                    int n = writeSmall(b, null, off, len);
                    if (n == len) {
                        return;
                    }
                    if (n > 0) {
                        off += n;
                        len -= n;
                    }
                    socketFull = n >= 0; // the rest goes through a buffer to the loop, no second try
                }
                int n = Math.min(len, CHUNK);
                ByteBuf buf = ch.alloc().ioBuffer(n);
                buf.writeBytes(b, off, n);
                handOff(buf, !socketFull);
                off += n;
                len -= n;
            }
        } finally {
            releaseWrite();
        }
    }

    /** {@link Conn#write(ByteBuffer)}: all of {@code src}'s remaining bytes. */
    void write(ByteBuffer src) throws IOException {
        acquireWrite();
        try {
            while (src.hasRemaining()) {
                if (!awaitWritable()) {
                    continue;
                }
                int left = src.remaining();
                boolean socketFull = false;
                if (direct != null && left <= DirectWriter.SCRATCH_BYTES && nothingQueuedOnLoop()) {
                    int k = writeSmall(null, src, 0, left);
                    if (k > 0) {
                        src.position(src.position() + k);
                    }
                    if (k == left) {
                        return;
                    }
                    socketFull = k >= 0;
                }
                int n = Math.min(src.remaining(), CHUNK);
                ByteBuf buf = ch.alloc().ioBuffer(n);
                int limit = src.limit();
                src.limit(src.position() + n);
                buf.writeBytes(src);
                src.limit(limit);
                handOff(buf, !socketFull);
            }
        } finally {
            releaseWrite();
        }
    }

    /**
     * Takes the write lock (Go's {@code fd.writeLock}): one write at a time hands its bytes
     * over, so two goroutines writing messages to one connection never interleave them.
     */
    void acquireWrite() throws IOException {
        Waiter w = null;
        while (true) {
            lock.lock();
            try {
                if (conn.closed) {
                    throw new NetClosedException("write " + conn);
                }
                if (!writing) {
                    writing = true;
                    return;
                }
                w = Waiters.enqueue(lockQueue, w);
            } finally {
                lock.unlock();
            }
            conn.poller.park(w, "IO wait (write lock)", false, 0);
        }
    }

    /** Releases the write lock and wakes the first writer waiting for it (it re-checks). */
    void releaseWrite() {
        Waiter next = null;
        lock.lock();
        try {
            writing = false;
            if (!lockQueue.isEmpty()) {
                next = lockQueue.remove(0);
            }
        } finally {
            lock.unlock();
        }
        if (next != null && next.claim(Boolean.TRUE)) {
            next.wake();
        }
    }

    /**
     * True when the caller may hand over a buffer now; false after parking until writable (the
     * caller loops). Throws for closed, failed or shut connections and a passed deadline.
     */
    private boolean awaitWritable() throws IOException {
        Waiter w;
        Deadline until;
        lock.lock();
        try {
            if (conn.closed) {
                throw new NetClosedException("write " + conn);
            }
            if (writeShut) {
                throw new SocketException("write " + conn + ": write: broken pipe"); // Go's EPIPE after CloseWrite
            }
            if (conn.error != null) {
                throw Conn.copy(conn.error);
            }
            if (conn.inactive) {
                throw new SocketException("write " + conn + ": write: broken pipe");
            }
            if (deadline.passed()) {
                throw new DeadlineExceededException("write " + conn);
            }
            // Read isWritable under the lock: ConnHandler.channelWritabilityChanged takes the
            // lock after Netty flipped the flag, so either we see it writable here or the
            // handler finds us in writers.
            if (ch.isWritable()) {
                return true;
            }
            w = Waiters.enqueue(writers, lastWaiter);
            until = deadline;
        } finally {
            lock.unlock();
        }
        writeParks++;
        lastWaiter = w;
        conn.park(w, writers, "IO wait (write)", until);
        return false;
    }

    /**
     * A small write by the goroutine itself, through its writer's scratch memory (no buffer
     * allocated): {@code b[off, off+len)}, or else all of {@code src}'s remaining bytes. Returns
     * the bytes the socket took, 0 if it took none, -1 if the writer could not write (the
     * channel closed): the caller sends what is left through {@link #handOff}.
     */
    private int writeSmall(byte[] b, ByteBuffer src, int off, int len) throws IOException {
        int n;
        try {
            n = b != null ? direct.writeSmall(b, off, len) : direct.writeSmall(src);
        } catch (IOException e) {
            throw writeFailed(e);
        }
        if (n == len) {
            directWrites++;
        }
        return n;
    }

    /**
     * Sends {@code buf}, which is the caller's to release until here: by the goroutine itself
     * while the loop holds nothing of this connection's, else (and whatever the kernel did not
     * take) through the loop. {@code tryDirect} false: the socket just took less than offered,
     * so the buffer goes to the loop without another try.
     */
    private void handOff(ByteBuf buf, boolean tryDirect) throws IOException {
        if (tryDirect && direct != null && buf.hasMemoryAddress() && nothingQueuedOnLoop()) {
            boolean wrote;
            try {
                wrote = direct.write(buf);
            } catch (IOException e) {
                buf.release();
                throw writeFailed(e);
            }
            if (wrote && !buf.isReadable()) {
                buf.release();
                directWrites++;
                return;
            }
        }
        // Ownership of buf passes to Netty here: it releases it once written, or on failure.
        // With a direct writer, counted in flight until its promise completes, on the loop,
        // after the socket took the last byte (or the write failed); failures go to
        // ConnHandler.exceptionCaught from there.
        loopWrites++;
        if (direct == null) {
            ch.writeAndFlush(buf, ch.voidPromise()); // failures reach exceptionCaught through it
        } else {
            loopWritesInFlight.incrementAndGet();
            ch.writeAndFlush(buf, ch.newPromise().addListener(loopWriteDone));
        }
        notePending();
    }

    /** Records the outbound bytes pending now in {@link #maxPendingSeen}; the write lock's holder only. */
    private void notePending() {
        ChannelOutboundBuffer ob = ch.unsafe().outboundBuffer();
        if (ob != null) {
            long pending = ob.totalPendingWriteBytes();
            if (pending > maxPendingSeen) {
                maxPendingSeen = pending;
            }
        }
    }

    /**
     * True when every buffer handed to the loop has reached the kernel. Our own count, not
     * Netty's pending bytes: a write task takes its bytes off that count before it adds them to
     * the outbound buffer, and a direct write in between would overtake them. Only the holder
     * of the write lock adds to it; the loop's completion takes off (a volatile read here, after
     * the loop's decrement, which came after the socket took the bytes).
     */
    private boolean nothingQueuedOnLoop() {
        return loopWritesInFlight.get() == 0;
    }

    /** A write handed to the loop completed: it is no longer in flight; a failure fails the connection. */
    private void loopWriteDone(ChannelFuture f) {
        loopWritesInFlight.decrementAndGet();
        if (!f.isSuccess()) {
            ch.pipeline().fireExceptionCaught(f.cause());
        }
    }

    /** The goroutine's own write failed: the connection fails as on the loop; returns what to throw. */
    private IOException writeFailed(IOException cause) {
        IOException e = Conn.translate("write " + conn, cause);
        conn.fail(e);
        return Conn.copy(e);
    }

    /** {@link Conn#closeWrite}: the output shuts once everything written so far is sent. */
    void closeWrite() throws IOException {
        ArrayList<Waiter> wake;
        lock.lock();
        try {
            if (conn.closed) {
                throw new NetClosedException("close " + conn);
            }
            if (writeShut) {
                return;
            }
            writeShut = true;
            wake = Waiters.take(writers);
        } finally {
            lock.unlock();
        }
        Waiters.wakeAll(wake);
        endRelay();
        // The empty write completes after every write queued before it: shut the output then
        // (shutting it at once would fail the writes still in Netty's outbound buffer).
        ch.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener((ChannelFutureListener) f -> {
            if (f.channel() instanceof DuplexChannel d && f.channel().isActive()) {
                d.shutdownOutput();
            }
        });
    }

    /** Caller holds the lock: the write deadline ({@link Conn#setWriteDeadline}); returns the parked writers to wake, which re-check. */
    ArrayList<Waiter> setDeadlineLocked(Deadline d) {
        deadline = d;
        return Waiters.take(writers);
    }

    // =====================================================================================
    // The loop's side
    // =====================================================================================

    /** On the loop: the channel's writability flipped; writers parked on the watermark wake once it is writable. */
    void writabilityChanged() {
        Relay r = relay.get();
        if (r != null && ch.isWritable()) {
            r.dstWritable();
        }
        if (ch.isWritable()) {
            ArrayList<Waiter> wake;
            lock.lock();
            try {
                wake = Waiters.take(writers);
            } finally {
                lock.unlock();
            }
            Waiters.wakeAll(wake);
        }
    }

    /** Caller holds the lock: moves every writer parked on the watermark into {@code wake}. */
    void takeParkedLocked(ArrayList<Waiter> wake) {
        wake.addAll(writers);
        writers.clear();
    }

    /** Caller holds the lock and has set the connection's {@code closed}: moves the write lock's queue into {@code wake}. */
    void takeLockQueueLocked(ArrayList<Waiter> wake) {
        wake.addAll(lockQueue);
        lockQueue.clear();
    }

    // =====================================================================================
    // The relay writing into this connection
    // =====================================================================================

    /** Registers {@code r} as the relay writing into this connection, unless its state needs the goroutine's own writes. */
    boolean attachRelay(Relay r) {
        lock.lock();
        try {
            if (conn.closed || conn.inactive || conn.error != null || writeShut || deadline.set) {
                return false;
            }
            return relay.attachLocked(r);
        } finally {
            lock.unlock();
        }
    }

    /** Caller holds the lock: unregisters {@code r} if it is the relay writing into here. */
    void detachRelayLocked(Relay r) {
        relay.detachLocked(r);
    }

    /**
     * A relay's write, on the loop, queued behind every earlier write; failures reach
     * exceptionCaught through the void promise. The relay holds the write lock, so no direct
     * write can run meanwhile; {@link #fenceRelayWrites} covers the ones after it. The relay
     * flushes at the end of each read burst.
     */
    void writeOnLoop(ByteBuf buf) {
        ch.write(buf, ch.voidPromise());
        notePending(); // the relay holds the write lock: the only writer
    }

    /**
     * The relay ends (on the loop): if its writes are not all with the kernel yet, one empty
     * write behind them is counted in flight like a goroutine's hand-off, so the next direct
     * write waits for them instead of overtaking. One promise per relay, not one per write.
     */
    void fenceRelayWrites() {
        ChannelOutboundBuffer ob = ch.unsafe().outboundBuffer();
        if (direct != null && ob != null && ob.totalPendingWriteBytes() > 0) {
            loopWritesInFlight.incrementAndGet();
            ch.write(Unpooled.EMPTY_BUFFER, ch.newPromise().addListener(loopWriteDone));
        }
    }

    /** Ends the relay writing into here, if any; the caller changed the state that ends it under the lock first. */
    void endRelay() {
        relay.end();
    }
}
