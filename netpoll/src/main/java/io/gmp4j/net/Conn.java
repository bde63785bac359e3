package io.gmp4j.net;

import io.gmp4j.runtime.ShortLock;
import io.gmp4j.runtime.Waiter;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelOutboundBuffer;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * A TCP connection: Go's {@code net.Conn}, with blocking calls that park only the calling
 * goroutine while Netty's event loop does the I/O.
 *
 * <h2>Reading</h2>
 * The channel reads ahead, like a socket's receive buffer: the first reader turns the
 * channel's autoRead on (a task handed to the loop), and from then on the loop reads whenever
 * bytes arrive, {@code channelRead} queues them and wakes the readers, and a reader that finds
 * bytes queued takes them without involving the loop. When {@link ConnReader#INBOUND_HIGH}
 * bytes are queued the loop turns autoRead off (the peer then meets TCP's flow control), and
 * the reader that drains the queue to {@link ConnReader#INBOUND_LOW} turns it on again. So a
 * steady request/response exchange costs no hand-off and no epoll change per read, and queued
 * input stays below {@code INBOUND_HIGH} plus one read burst. A read returns what is buffered, at least one byte,
 * at most the caller's length, or -1 at end of stream (as Java streams do; Go returns
 * {@code io.EOF}).
 *
 * <h2>Writing</h2>
 * A write copies the caller's bytes into pooled buffers of at most {@link ConnWriter#CHUNK}
 * bytes. While nothing written earlier is still queued on the loop, the goroutine writes each
 * buffer to the socket itself through its {@link DirectWriter} (epoll only), as Go's write does, and the
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
 * <h2>Structure</h2>
 * This class holds the connection's life (closed, inactive, failed) and the one lock that
 * guards all of its state; {@link ConnReader} holds the input side, {@link ConnWriter} the
 * output side, {@link ConnHandler} is its handler in the channel's pipeline. The public read
 * and write methods check their arguments and pass the call on to the side it concerns.
 *
 * <h2>Invariants (all under {@link #lock})</h2>
 * <ul>
 *   <li>{@code closed}, {@code inactive} and {@code error} are set once and never cleared;
 *       {@link #close}, {@link #fail} and {@link #channelInactive} wake every goroutine parked on
 *       the connection after setting theirs, and every event that sets one ends the relays
 *       through it after unlocking.</li>
 *   <li>A waiter is on one of the connection's lists only while its thread is parked or about
 *       to park; every waker removes it under the lock and wakes it after unlocking, through
 *       {@link Waiter#claim} because a deadline timer may race ({@link #park}).</li>
 * </ul>
 */
public final class Conn implements AutoCloseable {
    final Poller poller;
    final Channel ch;
    /** Guards the state of this class, of {@link #reader} and of {@link #writer}. */
    final ShortLock lock = new ShortLock();
    final ConnReader reader;
    final ConnWriter writer;
    final ConnHandler handler;
    private final String name;

    // --- guarded by lock
    /** The channel is closed (by either side, or the loop's shutdown). */
    boolean inactive;
    /** Why the connection failed (reset by peer, broken pipe), or null. */
    IOException error;
    /** This side called {@link #close}. */
    boolean closed;

    /** Run once by the first {@link #close} (a limited listener frees a slot); set before the conn is returned. */
    Runnable onClose;

    Conn(Poller poller, Channel ch) {
        this.poller = poller;
        this.ch = ch;
        this.name = "tcp";
        this.reader = new ConnReader(this);
        this.writer = new ConnWriter(this);
        this.handler = new ConnHandler(this);
    }

    // =====================================================================================
    // Reading and writing
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
        return reader.read(b, null, off, len);
    }

    /** Reads into {@code dst}'s remaining space, as {@link #read(byte[], int, int)} does. */
    public int read(ByteBuffer dst) throws IOException {
        if (!dst.hasRemaining()) {
            return 0;
        }
        return reader.read(null, dst, 0, dst.remaining());
    }

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
        writer.write(b, off, len);
    }

    /** Writes all of {@code src}'s remaining bytes; see {@link #write(byte[], int, int)}. */
    public void write(ByteBuffer src) throws IOException {
        writer.write(src);
    }

    /** Writes all of {@code b}. */
    public void write(byte[] b) throws IOException {
        write(b, 0, b.length);
    }

    /**
     * Shuts the write side (TCP FIN) once everything written so far is sent; reading goes on.
     * Go's {@code TCPConn.CloseWrite}.
     */
    public void closeWrite() throws IOException {
        writer.closeWrite();
    }

    // =====================================================================================
    // Closing and failing
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
            writer.takeLockQueueLocked(wake);
            reader.releaseInboundLocked();
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
            reader.releaseInboundLocked();
        } finally {
            lock.unlock();
        }
        endRelays();
    }

    /**
     * The connection failed (on the loop or in the writing goroutine): the first failure is the
     * one every later call reports; everyone parked wakes to it, and the channel closes.
     */
    void fail(IOException e) {
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

    /** On the loop: the channel closed; everyone parked wakes, and a closed connection leaves its poller. */
    void channelInactive() {
        ArrayList<Waiter> wake;
        lock.lock();
        try {
            inactive = true;
            wake = takeParkedLocked();
            if (closed) {
                reader.releaseInboundLocked();
            }
        } finally {
            lock.unlock();
        }
        Waiters.wakeAll(wake);
        endRelays();
        if (closed) {
            poller.conns.remove(this);
        }
    }

    /** Caller holds the lock: every parked reader and writer, to wake after unlocking. */
    private ArrayList<Waiter> takeParkedLocked() {
        ArrayList<Waiter> wake = reader.takeParkedLocked();
        writer.takeParkedLocked(wake);
        return wake;
    }

    // =====================================================================================
    // Deadlines
    // =====================================================================================

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
        setDeadline(t, true);
    }

    /** Go's {@code SetWriteDeadline}; see {@link #setReadDeadline}. */
    public void setWriteDeadline(Instant t) {
        setDeadline(t, false);
    }

    /**
     * Sets the read or the write deadline: the goroutines parked on that side wake and re-check,
     * and the relay through that side ends (the copying goroutine's own reads or writes apply
     * the deadline).
     */
    private void setDeadline(Instant t, boolean read) {
        Deadline d = Deadline.at(t);
        ArrayList<Waiter> wake;
        lock.lock();
        try {
            wake = read ? reader.setDeadlineLocked(d) : writer.setDeadlineLocked(d);
        } finally {
            lock.unlock();
        }
        Waiters.wakeAll(wake);
        if (read) {
            reader.endRelay();
        } else {
            writer.endRelay();
        }
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
                return reader.available();
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

    @Override
    public String toString() {
        return name + " " + NetErrors.hostPort(ch.localAddress()) + "->" + NetErrors.hostPort(ch.remoteAddress());
    }

    // =====================================================================================
    // Parking and errors, for both sides
    // =====================================================================================

    /**
     * Parks on {@code w}, which the caller put on {@code q} under the lock, until woken or
     * {@code deadline} (the one the caller read under that lock). If the deadline won, takes
     * {@code w} off {@code q} (the caller loops and throws).
     */
    void park(Waiter w, ArrayList<Waiter> q, String reason, Deadline deadline) {
        if (!poller.park(w, reason, deadline.set, deadline.nanoTime)) {
            lock.lock();
            try {
                q.remove(w);
            } finally {
                lock.unlock();
            }
        }
    }

    /** A copy of the connection's failure to throw, so each throw has its caller's stack. */
    static IOException copy(IOException e) {
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

    /** Unregisters {@code r}, whichever end of it this connection is (a relay's ends differ). */
    void detachRelay(Relay r) {
        lock.lock();
        try {
            reader.detachRelayLocked(r);
            writer.detachRelayLocked(r);
        } finally {
            lock.unlock();
        }
    }

    /** This connection closed or failed: every relay through it ends, and its goroutine finds out itself. */
    void endRelays() {
        reader.endRelay();
        writer.endRelay();
    }
}
