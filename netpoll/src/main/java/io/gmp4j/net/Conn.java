package io.gmp4j.net;

import io.gmp4j.runtime.ShortLock;
import io.gmp4j.runtime.Waiter;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.channel.socket.ChannelInputShutdownEvent;
import io.netty.channel.socket.DuplexChannel;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP connection: Go's {@code net.Conn}, with blocking calls that park only the calling
 * goroutine while Netty's event loop does the I/O.
 *
 * <h2>Reading</h2>
 * The channel reads ahead, like a socket's receive buffer: the first reader turns the
 * channel's autoRead on (a task handed to the loop), and from then on the loop reads whenever
 * bytes arrive, {@code channelRead} queues them and wakes the readers, and a reader that finds
 * bytes queued takes them without involving the loop. When {@link #INBOUND_HIGH} bytes are
 * queued the loop turns autoRead off (the peer then meets TCP's flow control), and the reader
 * that drains the queue to {@link #INBOUND_LOW} turns it on again. So a steady request/response
 * exchange costs no hand-off and no epoll change per read, and queued input stays below
 * {@code INBOUND_HIGH} plus one read burst. A read returns what is buffered, at least one byte,
 * at most the caller's length, or -1 at end of stream (as Java streams do; Go returns
 * {@code io.EOF}).
 *
 * <h2>Writing</h2>
 * A write copies the caller's bytes into pooled buffers of at most {@link #CHUNK} bytes. While
 * nothing written earlier is still queued on the loop, the goroutine writes each buffer to the
 * socket itself through its {@link DirectWriter} (epoll only), as Go's write does, and the
 * loop is not involved at all; a write of at most {@link DirectWriter#SCRATCH_BYTES} goes
 * through the writer's own scratch memory instead, with no buffer allocated unless the kernel
 * leaves a rest. Whatever the kernel did not take is handed to the loop, after
 * which later buffers follow it there until the loop has sent everything, so bytes keep their
 * order.
 * Before each hand-off the write parks while the channel is not writable (the outbound buffer
 * is over its high watermark, {@link Net#HIGH_WATER}), so a slow peer costs at most about
 * {@code HIGH_WATER + CHUNK} bytes per connection. Netty counts a buffer as pending when the
 * goroutine submits it, not when the loop runs the task, so the bound holds across the
 * hand-off, and "nothing pending" means every earlier byte reached the kernel. A write
 * returns once its bytes are with the kernel or queued, like a Go write returns once the
 * kernel took them; a failure the goroutine meets itself is thrown at once, one the loop
 * meets surfaces on a later call.
 *
 * <h2>Relaying</h2>
 * {@link Io#copy} from this connection to another of the same loop is done by the loop
 * ({@link Relay}): while a relay reads from it, {@code channelRead} hands each buffer to the
 * relay instead of {@code inbound}; while one writes into it, it holds the write lock. Every
 * event that changes what a read or write would answer ends the relays through it.
 *
 * <h2>Invariants (all under {@link #lock})</h2>
 * <ul>
 *   <li>{@code inbound} is non-empty only while nobody waits in {@code readers} for data: a
 *       {@code channelRead} wakes every reader, and a reader parks only on an empty queue.</li>
 *   <li>{@code reading} (autoRead on, or a task turning it on is on its way) is cleared only
 *       on the loop when {@code inboundBytes} reaches {@link #INBOUND_HIGH} or input ends, and
 *       set again only by a reader that leaves at most {@link #INBOUND_LOW} bytes queued, so
 *       buffered input is bounded by {@code INBOUND_HIGH} plus one read burst (the receive
 *       allocator's {@code maxMessagesPerRead} times its largest buffer).</li>
 *   <li>Every {@link ByteBuf} in {@code inbound} is released exactly once: by the read that
 *       drains it, or by whoever sets {@code closed} (which also makes later
 *       {@code channelRead}s release at once).</li>
 *   <li>A waiter is in {@code readers}/{@code writers} only while its thread is parked or about
 *       to park; every waker removes it under the lock and wakes it after unlocking, through
 *       {@link Waiter#claim} because a deadline timer may race.</li>
 * </ul>
 */
public final class Conn implements AutoCloseable {
    /** The largest buffer one write hands to the loop. */
    static final int CHUNK = 64 * 1024;
    /** Queued input at which the loop stops reading ahead. */
    static final int INBOUND_HIGH = 128 * 1024;
    /** Queued input at or below which a reader has reading ahead resume. */
    static final int INBOUND_LOW = 32 * 1024;

    final Poller poller;
    final Channel ch;
    final Handler handler = new Handler();
    private final Runnable readTask;
    private final String name;
    /** The goroutine's own path to the socket, or null where every write goes through the loop. */
    private final DirectWriter direct;
    /** Writes handed to the loop and not yet completed ({@link #nothingQueuedOnLoop}); used only beside {@link #direct}. */
    private final AtomicInteger loopWritesInFlight = new AtomicInteger();
    private final ChannelFutureListener loopWriteDone = this::loopWriteDone;

    private final ShortLock lock = new ShortLock();
    // --- guarded by lock
    private final ArrayDeque<ByteBuf> inbound = new ArrayDeque<>();
    private final ArrayList<Waiter> readers = new ArrayList<>(1);
    private final ArrayList<Waiter> writers = new ArrayList<>(1);
    /** autoRead is on, or a task turning it on is on its way to the loop. */
    private boolean reading;
    /** Bytes queued in {@code inbound}. */
    private int inboundBytes;
    /** The peer shut its output (FIN) or the connection ended without an error. */
    private boolean eof;
    /** The channel is closed (by either side, or the loop's shutdown). */
    private boolean inactive;
    /** Why the connection failed (reset by peer, broken pipe), or null. */
    private IOException error;
    /** This side called {@link #close}. */
    private boolean closed;
    /** This side called {@link #closeWrite}. */
    private boolean writeShut;
    /** A write is in progress: Go's fdMutex write lock, so concurrent writes do not interleave. */
    private boolean writing;
    /** Writers waiting for {@link #writing} to clear, first come first served. */
    private final ArrayList<Waiter> writeLockQueue = new ArrayList<>(1);
    private boolean readDeadlineSet;
    private long readDeadline;
    private boolean writeDeadlineSet;
    private long writeDeadline;

    /**
     * The {@link Relay} reading from this connection and the one writing into it, or null: set
     * by the copying goroutine under {@link #lock} (attach checks this connection's state), cleared
     * on the loop when the relay ends. Every event that ends a relay changes that state under
     * the lock first and reads these after ({@link #endRelays}).
     */
    private volatile Relay relayFrom;
    private volatile Relay relayInto;

    /** Run once by the first {@link #close} (a limited listener frees a slot); set before the conn is returned. */
    Runnable onClose;

    // --- statistics for tests: written by the writing thread only, volatile for the test's polling
    /** Most outbound bytes seen pending right after a hand-off. */
    volatile long maxPendingSeen;
    /** Times a write parked because the channel was not writable. */
    volatile long writeParks;
    /** Buffers the writing goroutine sent to the socket itself, whole. */
    volatile long directWrites;
    /** Buffers (or their rests) handed to the loop. */
    volatile long loopWrites;
    /** Most input bytes seen queued after a read burst; written on the loop only. */
    volatile long maxInboundSeen;
    /** Bytes a {@link Relay} forwarded from this connection; written on the loop only. */
    volatile long relayedBytes;

    Conn(Poller poller, Channel ch) {
        this.poller = poller;
        this.ch = ch;
        this.readTask = this::readOnLoop;
        this.name = "tcp";
        this.direct = DirectWriter.open(ch);
    }

    /** The goroutine's own write path for this connection, or null when writes go through the loop. */
    DirectWriter directWriter() {
        return direct;
    }

    // =====================================================================================
    // Reading
    // =====================================================================================

    /**
     * Reads at least one and at most {@code len} bytes into {@code b}, parking until some
     * arrive. Returns the count, or -1 at end of stream ({@code len == 0} returns 0).
     *
     * @throws DeadlineExceededException when the read deadline passes first
     * @throws NetClosedException        when this side closed the connection
     * @throws SocketException           when the peer reset the connection
     */
    public int read(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        if (len == 0) {
            return 0;
        }
        Waiter w = null;
        while (true) {
            boolean request;
            boolean timed;
            long deadline;
            int n;
            lock.lock();
            try {
                n = readCheck();
                if (n != 0) {
                    return n;
                }
                if (!inbound.isEmpty()) {
                    n = copyOut(b, off, len);
                    request = resumeReadingLocked();
                } else {
                    w = enqueue(readers, w);
                    request = requestReadLocked();
                    n = 0;
                }
                timed = readDeadlineSet;
                deadline = readDeadline;
            } finally {
                lock.unlock();
            }
            if (n > 0) {
                if (request) {
                    ch.eventLoop().execute(readTask);
                }
                return n;
            }
            parkOn(w, readers, request, "IO wait (read)", timed, deadline);
        }
    }

    /** Reads into {@code dst}'s remaining space, as {@link #read(byte[], int, int)} does. */
    public int read(ByteBuffer dst) throws IOException {
        if (!dst.hasRemaining()) {
            return 0;
        }
        Waiter w = null;
        while (true) {
            boolean request;
            boolean timed;
            long deadline;
            int n;
            lock.lock();
            try {
                n = readCheck();
                if (n != 0) {
                    return n;
                }
                if (!inbound.isEmpty()) {
                    n = copyOut(dst);
                    request = resumeReadingLocked();
                } else {
                    w = enqueue(readers, w);
                    request = requestReadLocked();
                    n = 0;
                }
                timed = readDeadlineSet;
                deadline = readDeadline;
            } finally {
                lock.unlock();
            }
            if (n > 0) {
                if (request) {
                    ch.eventLoop().execute(readTask);
                }
                return n;
            }
            parkOn(w, readers, request, "IO wait (read)", timed, deadline);
        }
    }

    /**
     * Caller holds the lock. Throws for a closed or failed connection and a passed deadline,
     * returns -1 at end of stream with nothing buffered, 0 to go on.
     */
    private int readCheck() throws IOException {
        if (closed) {
            throw new NetClosedException("read " + this);
        }
        // Go's prepareRead: a passed deadline fails the read even with bytes buffered.
        if (readDeadlineSet && readDeadline - System.nanoTime() <= 0) {
            throw new DeadlineExceededException("read " + this);
        }
        if (!inbound.isEmpty()) {
            return 0; // buffered bytes are delivered even past EOF or an error, as the kernel does
        }
        if (error != null) {
            throw copy(error);
        }
        if (eof || inactive) {
            return -1;
        }
        return 0;
    }

    /**
     * The read request, on the loop: autoRead on (which starts a read). The input may have
     * ended between the request and now (the FIN came with the previous burst): reading then
     * fails in epoll (the fd may be gone from the epoll set), so wake the readers instead; they
     * find EOF.
     */
    private void readOnLoop() {
        if (ch.isActive() && !(ch instanceof DuplexChannel d && d.isInputShutdown())) {
            ch.config().setAutoRead(true);
            return;
        }
        ArrayList<Waiter> wake;
        lock.lock();
        try {
            reading = false;
            eof = true;
            wake = Waiters.take(readers);
        } finally {
            lock.unlock();
        }
        Waiters.wakeAll(wake);
    }

    /** Caller holds the lock: true if the caller must hand a read request to the loop. */
    private boolean requestReadLocked() {
        if (reading) {
            return false;
        }
        reading = true;
        return true;
    }

    /**
     * Caller holds the lock, after taking bytes: true if reading ahead was off and the queue is
     * now low enough to turn it back on (the caller hands the request to the loop).
     */
    private boolean resumeReadingLocked() {
        if (reading || inboundBytes > INBOUND_LOW || eof || inactive || error != null) {
            return false;
        }
        reading = true;
        return true;
    }

    private int copyOut(byte[] b, int off, int len) {
        int n = 0;
        while (n < len && !inbound.isEmpty()) {
            ByteBuf buf = inbound.peekFirst();
            int k = Math.min(len - n, buf.readableBytes());
            buf.readBytes(b, off + n, k);
            n += k;
            inboundBytes -= k;
            if (!buf.isReadable()) {
                inbound.pollFirst().release();
            }
        }
        return n;
    }

    private int copyOut(ByteBuffer dst) {
        int n = 0;
        while (dst.hasRemaining() && !inbound.isEmpty()) {
            ByteBuf buf = inbound.peekFirst();
            int k = Math.min(dst.remaining(), buf.readableBytes());
            int limit = dst.limit();
            dst.limit(dst.position() + k);
            buf.readBytes(dst);
            dst.limit(limit);
            n += k;
            inboundBytes -= k;
            if (!buf.isReadable()) {
                inbound.pollFirst().release();
            }
        }
        return n;
    }

    // =====================================================================================
    // Writing
    // =====================================================================================

    /**
     * Writes all of {@code b[off, off+len)}, parking while the connection's outbound buffer is
     * full. Concurrent writes on one connection take turns, whole write by whole write.
     *
     * @throws DeadlineExceededException when the write deadline passes while parked (bytes
     *                                   handed over before it stay sent)
     * @throws NetClosedException        when this side closed the connection
     * @throws SocketException           when the connection broke or its output was shut
     */
    public void write(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
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

    /** Writes all of {@code src}'s remaining bytes; see {@link #write(byte[], int, int)}. */
    public void write(ByteBuffer src) throws IOException {
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
                if (closed) {
                    throw new NetClosedException("write " + this);
                }
                if (!writing) {
                    writing = true;
                    return;
                }
                w = enqueue(writeLockQueue, w);
            } finally {
                lock.unlock();
            }
            poller.park(w, "IO wait (write lock)", false, 0);
        }
    }

    /** Releases the write lock and wakes the first writer waiting for it (it re-checks). */
    void releaseWrite() {
        Waiter next = null;
        lock.lock();
        try {
            writing = false;
            if (!writeLockQueue.isEmpty()) {
                next = writeLockQueue.remove(0);
            }
        } finally {
            lock.unlock();
        }
        if (next != null && next.claim(Boolean.TRUE)) {
            next.wake();
        }
    }

    /** Writes all of {@code b}. */
    public void write(byte[] b) throws IOException {
        write(b, 0, b.length);
    }

    /**
     * The waiter of the last write park, reused by the same thread's next one ({@link Waiter#reusable}
     * checks the thread, so a concurrent writer that reads another's waiter here makes its own).
     */
    private Waiter lastWaiter;

    /**
     * True when the caller may hand over a buffer now; false after parking until writable (the
     * caller loops). Throws for closed, failed or shut connections and a passed deadline.
     */
    private boolean awaitWritable() throws IOException {
        Waiter w;
        boolean timed;
        long deadline;
        lock.lock();
        try {
            if (closed) {
                throw new NetClosedException("write " + this);
            }
            if (writeShut) {
                throw new SocketException("write " + this + ": write: broken pipe"); // Go's EPIPE after CloseWrite
            }
            if (error != null) {
                throw copy(error);
            }
            if (inactive) {
                throw new SocketException("write " + this + ": write: broken pipe");
            }
            if (writeDeadlineSet && writeDeadline - System.nanoTime() <= 0) {
                throw new DeadlineExceededException("write " + this);
            }
            // Read isWritable under the lock: channelWritabilityChanged takes the lock after
            // Netty flipped the flag, so either we see it writable here or the handler finds us
            // in writers.
            if (ch.isWritable()) {
                return true;
            }
            w = enqueue(writers, lastWaiter);
            timed = writeDeadlineSet;
            deadline = writeDeadline;
        } finally {
            lock.unlock();
        }
        writeParks++;
        lastWaiter = w;
        parkOn(w, writers, false, "IO wait (write)", timed, deadline);
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
        // Handler.exceptionCaught from there.
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

    /** Caller holds the lock: every parked reader and writer, to wake after unlocking. */
    private ArrayList<Waiter> takeParkedLocked() {
        ArrayList<Waiter> wake = Waiters.take(readers);
        wake.addAll(writers);
        writers.clear();
        return wake;
    }

    /** The goroutine's own write failed: the connection fails as on the loop; returns what to throw. */
    private IOException writeFailed(IOException cause) {
        IOException e = translate("write " + this, cause);
        fail(e);
        return copy(e);
    }

    /**
     * The connection failed (on the loop or in the writing goroutine): the first failure is the
     * one every later call reports; everyone parked wakes to it, and the channel closes.
     */
    private void fail(IOException e) {
        ArrayList<Waiter> wake;
        lock.lock();
        try {
            if (error == null) {
                error = e;
            }
            wake = takeParkedLocked();
        } finally {
            lock.unlock();
        }
        Waiters.wakeAll(wake);
        endRelays();
        ch.close();
    }

    /**
     * Shuts the write side (TCP FIN) once everything written so far is sent; reading goes on.
     * Go's {@code TCPConn.CloseWrite}.
     */
    public void closeWrite() throws IOException {
        ArrayList<Waiter> wake;
        lock.lock();
        try {
            if (closed) {
                throw new NetClosedException("close " + this);
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
        endRelay(relayInto);
        // The empty write completes after every write queued before it: shut the output then
        // (shutting it at once would fail the writes still in Netty's outbound buffer).
        ch.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener((ChannelFutureListener) f -> {
            if (f.channel() instanceof DuplexChannel d && f.channel().isActive()) {
                d.shutdownOutput();
            }
        });
    }

    // =====================================================================================
    // Closing and deadlines
    // =====================================================================================

    /**
     * Closes the connection: every goroutine parked on it wakes with {@link NetClosedException},
     * and so does every later operation. Bytes already written are still sent (for at most
     * {@link Net#LINGER_SECONDS}); buffered input is dropped. Idempotent.
     */
    @Override
    public void close() {
        ArrayList<Waiter> wake;
        lock.lock();
        try {
            if (closed) {
                return;
            }
            closed = true;
            wake = takeParkedLocked();
            wake.addAll(writeLockQueue);
            writeLockQueue.clear();
            releaseInbound();
        } finally {
            lock.unlock();
        }
        Waiters.wakeAll(wake);
        endRelays();
        poller.conns.remove(this);
        Runnable hook = onClose;
        if (hook != null) {
            hook.run(); // a limited listener's slot
        }
        ch.eventLoop().execute(this::closeOnLoop);
    }

    /** On the loop, after every write handed over before close: flush them, then close. */
    private void closeOnLoop() {
        ChannelOutboundBuffer ob = ch.unsafe().outboundBuffer();
        if (ob == null || ob.totalPendingWriteBytes() == 0 || !ch.isActive()) {
            ch.close();
            return;
        }
        ch.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
        // A peer that stops reading must not keep the socket open for ever: close after the linger.
        var linger = ch.eventLoop().schedule(() -> {
            ch.close();
        }, Net.LINGER_SECONDS, TimeUnit.SECONDS);
        ch.closeFuture().addListener(f -> linger.cancel(false));
    }

    /** Releases buffered input when the poller shuts down (the runtime closed). */
    void discard() {
        lock.lock();
        try {
            closed = true;
            releaseInbound();
        } finally {
            lock.unlock();
        }
        endRelays();
    }

    /** Caller holds the lock and has set {@code closed}. */
    private void releaseInbound() {
        ByteBuf buf;
        while ((buf = inbound.pollFirst()) != null) {
            buf.release();
        }
        inboundBytes = 0;
    }

    /** Sets the read and write deadlines; see {@link #setReadDeadline}. */
    public void setDeadline(Instant t) {
        setReadDeadline(t);
        setWriteDeadline(t);
    }

    /**
     * Go's {@code SetReadDeadline}: reads parked now and later fail with
     * {@link DeadlineExceededException} once {@code t} passes; a time in the past fails them at
     * once; null (or {@link Instant#EPOCH}, Go's zero time) clears it. Parked reads wake and
     * re-check, so a later deadline extends them.
     */
    public void setReadDeadline(Instant t) {
        ArrayList<Waiter> wake;
        lock.lock();
        try {
            readDeadlineSet = t != null && !t.equals(Instant.EPOCH);
            readDeadline = readDeadlineSet ? toNanoTime(t) : 0;
            wake = Waiters.take(readers);
        } finally {
            lock.unlock();
        }
        Waiters.wakeAll(wake);
        endRelay(relayFrom); // the copying goroutine's own reads apply the deadline
    }

    /** Go's {@code SetWriteDeadline}; see {@link #setReadDeadline}. */
    public void setWriteDeadline(Instant t) {
        ArrayList<Waiter> wake;
        lock.lock();
        try {
            writeDeadlineSet = t != null && !t.equals(Instant.EPOCH);
            writeDeadline = writeDeadlineSet ? toNanoTime(t) : 0;
            wake = Waiters.take(writers);
        } finally {
            lock.unlock();
        }
        Waiters.wakeAll(wake);
        endRelay(relayInto); // the copying goroutine's own writes apply the deadline
    }

    static long toNanoTime(Instant t) {
        long now = System.nanoTime();
        Instant wall = Instant.now();
        long d;
        try {
            d = java.time.Duration.between(wall, t).toNanos();
        } catch (ArithmeticException e) {
            d = t.isBefore(wall) ? Long.MIN_VALUE / 4 : Long.MAX_VALUE / 4;
        }
        d = Math.max(Long.MIN_VALUE / 4, Math.min(Long.MAX_VALUE / 4, d));
        return now + d;
    }

    // =====================================================================================
    // Addresses and views
    // =====================================================================================

    /** This side's address. */
    public InetSocketAddress localAddress() {
        return (InetSocketAddress) ch.localAddress();
    }

    /** The peer's address. */
    public InetSocketAddress remoteAddress() {
        return (InetSocketAddress) ch.remoteAddress();
    }

    /** A stream reading from this connection; closing it closes the connection. */
    public InputStream inputStream() {
        return new InputStream() {
            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                int n = Conn.this.read(one, 0, 1);
                return n < 0 ? -1 : one[0] & 0xff;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                return Conn.this.read(b, off, len);
            }

            @Override
            public int available() {
                lock.lock();
                try {
                    int n = 0;
                    for (ByteBuf buf : inbound) {
                        n += buf.readableBytes();
                    }
                    return n;
                } finally {
                    lock.unlock();
                }
            }

            @Override
            public void close() {
                Conn.this.close();
            }
        };
    }

    /** A stream writing to this connection (unbuffered: each write is handed over); closing it closes the connection. */
    public OutputStream outputStream() {
        return new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                Conn.this.write(new byte[]{(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                Conn.this.write(b, off, len);
            }

            @Override
            public void close() {
                Conn.this.close();
            }
        };
    }

    /** Readers parked now (tests). */
    int parkedReaders() {
        lock.lock();
        try {
            return readers.size();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public String toString() {
        return name + " " + NetErrors.hostPort(ch.localAddress()) + "->" + NetErrors.hostPort(ch.remoteAddress());
    }

    // =====================================================================================
    // Waiting
    // =====================================================================================

    /** Caller holds the lock: adds the calling thread's waiter (reused when it may be) to {@code q}. */
    private static Waiter enqueue(ArrayList<Waiter> q, Waiter w) {
        if (w != null && w.reusable()) {
            w.reset();
        } else {
            w = Waiter.current();
        }
        q.add(w);
        return w;
    }

    /**
     * Hands a read request to the loop if asked, then parks on {@code w}. If the deadline won,
     * takes {@code w} off {@code q} (the caller loops and throws).
     */
    private void parkOn(Waiter w, ArrayList<Waiter> q, boolean requestRead, String reason, boolean timed,
                        long deadline) {
        if (requestRead) {
            ch.eventLoop().execute(readTask);
        }
        if (!poller.park(w, reason, timed, deadline)) {
            lock.lock();
            try {
                q.remove(w);
            } finally {
                lock.unlock();
            }
        }
    }



    private static IOException copy(IOException e) {
        IOException c = e instanceof SocketException ? new SocketException(e.getMessage()) : new IOException(e.getMessage());
        c.initCause(e);
        return c;
    }

    /** A failure of the socket, in Go's words ({@link NetErrors#conn}); {@code op} starts with "read" or "write". */
    static IOException translate(String op, Throwable cause) {
        return NetErrors.conn(op, op.startsWith("write") ? "write" : "read", cause);
    }

    // =====================================================================================
    // Relays (Relay: Io.copy between two connections of one loop, done by the loop)
    // =====================================================================================

    /** Registers {@code r} as the relay reading from this connection, unless its state needs the goroutine's own reads. */
    boolean attachRelayFrom(Relay r) {
        lock.lock();
        try {
            if (closed || eof || inactive || error != null || readDeadlineSet || !readers.isEmpty()
                    || relayFrom != null) {
                return false;
            }
            relayFrom = r;
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Registers {@code r} as the relay writing into this connection, unless its state needs the goroutine's own writes. */
    boolean attachRelayInto(Relay r) {
        lock.lock();
        try {
            if (closed || inactive || error != null || writeShut || writeDeadlineSet || relayInto != null) {
                return false;
            }
            relayInto = r;
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** Unregisters {@code r}, whichever end of it this connection is (a relay's ends differ). */
    void detachRelay(Relay r) {
        lock.lock();
        try {
            if (relayFrom == r) {
                relayFrom = null;
            }
            if (relayInto == r) {
                relayInto = null;
            }
        } finally {
            lock.unlock();
        }
    }

    /** The relay starts (on the loop): it forwards what this connection buffered first. */
    ArrayList<ByteBuf> takeInboundForRelay() {
        lock.lock();
        try {
            ArrayList<ByteBuf> taken = new ArrayList<>(inbound);
            inbound.clear();
            inboundBytes = 0;
            return taken;
        } finally {
            lock.unlock();
        }
    }

    /**
     * The relay ended (on the loop, which turned autoRead off): the next read asks again. A
     * reader that parked meanwhile (another goroutine reading the relay's source) is woken to
     * ask, since the read it counted on was the relay's.
     */
    void stopReadingAfterRelay() {
        ArrayList<Waiter> wake;
        lock.lock();
        try {
            reading = false;
            wake = readers.isEmpty() ? null : Waiters.take(readers);
        } finally {
            lock.unlock();
        }
        if (wake != null) {
            Waiters.wakeAll(wake);
        }
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

    /** True while a relay reads from this connection (for tests). */
    boolean relayingFrom() {
        return relayFrom != null;
    }

    /** This connection closed or failed: every relay through it ends, and its goroutine finds out itself. */
    private void endRelays() {
        endRelay(relayFrom);
        endRelay(relayInto);
    }

    private static void endRelay(Relay r) {
        if (r != null) {
            r.finish();
        }
    }

    // =====================================================================================
    // The loop side
    // =====================================================================================

    /** The connection's handler on the event loop: every method runs on the poller thread. */
    final class Handler extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf buf = (ByteBuf) msg; // this handler now owns it
            Relay relay = relayFrom;
            if (relay != null && relay.offer(buf)) {
                return;
            }
            ArrayList<Waiter> wake;
            boolean stop = false;
            lock.lock();
            try {
                if (closed || !buf.isReadable()) {
                    buf.release();
                    return;
                }
                inbound.addLast(buf);
                inboundBytes += buf.readableBytes();
                if (inboundBytes > maxInboundSeen) {
                    maxInboundSeen = inboundBytes;
                }
                if (inboundBytes >= INBOUND_HIGH && reading) {
                    reading = false; // before the unlock: a reader draining the queue turns it on again
                    stop = true;
                }
                wake = readers.isEmpty() ? null : Waiters.take(readers);
            } finally {
                lock.unlock();
            }
            if (stop) {
                // On the loop: applied before any resume task a reader hands over after our unlock.
                ctx.channel().config().setAutoRead(false);
            }
            if (wake != null) {
                Waiters.wakeAll(wake);
            }
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            if (evt instanceof ChannelInputShutdownEvent) {
                ArrayList<Waiter> wake;
                lock.lock();
                try {
                    eof = true;
                    reading = false;
                    wake = Waiters.take(readers);
                } finally {
                    lock.unlock();
                }
                Waiters.wakeAll(wake);
                endRelay(relayFrom); // the relay forwarded everything before the FIN
            }
            ctx.fireUserEventTriggered(evt);
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            Relay relay = relayFrom;
            if (relay != null) {
                relay.readComplete();
            }
            ctx.fireChannelReadComplete();
        }

        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
            Relay relay = relayInto;
            if (relay != null && ctx.channel().isWritable()) {
                relay.dstWritable();
            }
            if (ctx.channel().isWritable()) {
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

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            if (!(cause instanceof IOException)) {
                // Not the socket's failure but a bug (ours or a handler's): the connection still
                // fails, but loudly. A scheduler bug once closed connections here with no trace.
                System.err.println("gmp4j: unexpected failure on " + Conn.this + ", closing it:");
                cause.printStackTrace();
            }
            String m = cause.getMessage();
            fail(translate((m != null && m.toLowerCase(java.util.Locale.ROOT).contains("pipe") ? "write " : "read ")
                    + Conn.this, cause));
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            ArrayList<Waiter> wake;
            lock.lock();
            try {
                inactive = true;
                wake = takeParkedLocked();
                if (closed) {
                    releaseInbound();
                }
            } finally {
                lock.unlock();
            }
            Waiters.wakeAll(wake);
            endRelays();
            if (closed) {
                poller.conns.remove(Conn.this);
            }
        }
    }
}
