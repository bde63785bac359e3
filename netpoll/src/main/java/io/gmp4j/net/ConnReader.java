package io.gmp4j.net;

import io.gmp4j.runtime.ShortLock;
import io.gmp4j.runtime.Waiter;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.socket.DuplexChannel;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.ArrayList;

/**
 * The input side of one {@link Conn}: the queue of bytes the loop read ahead, the goroutines
 * parked for input, the flow control that bounds the queue, the read deadline, and the
 * {@link Relay} reading from the connection. The goroutine's half ({@link #read}) and the
 * loop's half ({@link #received}, {@link #inputEnded}), which {@link ConnHandler} calls, meet
 * under the connection's lock.
 *
 * <h2>Invariants (all under the connection's lock)</h2>
 * <ul>
 *   <li>{@code inbound} is non-empty only while nobody waits in {@code readers} for data: a
 *       {@link #received} wakes every reader, and a reader parks only on an empty queue.</li>
 *   <li>{@code reading} (autoRead on, or a task turning it on is on its way) is cleared only
 *       on the loop when {@code inboundBytes} reaches {@link #INBOUND_HIGH} or input ends, and
 *       set again only by a reader that leaves at most {@link #INBOUND_LOW} bytes queued, so
 *       buffered input is bounded by {@code INBOUND_HIGH} plus one read burst (the receive
 *       allocator's {@code maxMessagesPerRead} times its largest buffer).</li>
 *   <li>Every {@link ByteBuf} in {@code inbound} is released exactly once: by the read that
 *       drains it, by the relay that takes it, or by whoever sets the connection's
 *       {@code closed} (which also makes later {@link #received}s release at once).</li>
 *   <li>A waiter is in {@code readers} only while its thread is parked or about to park; every
 *       waker removes it under the lock and wakes it after unlocking ({@link Waiters}).</li>
 * </ul>
 */
final class ConnReader {
    /** Queued input at which the loop stops reading ahead. */
    static final int INBOUND_HIGH = 128 * 1024;
    /** Queued input at or below which a reader has reading ahead resume. */
    static final int INBOUND_LOW = 32 * 1024;

    private final Conn conn;
    /** The connection's lock, which guards the fields below and the connection's state. */
    private final ShortLock lock;
    private final Channel ch;
    private final Runnable readTask = this::readOnLoop;

    // --- guarded by lock
    private final ArrayDeque<ByteBuf> inbound = new ArrayDeque<>();
    private final ArrayList<Waiter> readers = new ArrayList<>(1);
    /** autoRead is on, or a task turning it on is on its way to the loop. */
    private boolean reading;
    /** Bytes queued in {@code inbound}. */
    private int inboundBytes;
    /** The peer shut its output (FIN) or the connection ended without an error. */
    private boolean eof;
    /** The read deadline; a read checks it and parks until it within one hold of the lock. */
    private Deadline deadline = Deadline.NONE;

    /** The {@link Relay} reading from this connection, if any; {@link #attachRelay} checks the connection's state. */
    private final RelaySlot relay = new RelaySlot();

    // --- statistics for tests: written on the loop only, volatile for the test's polling
    /** Most input bytes seen queued after a read burst. */
    volatile long maxInboundSeen;
    /** Bytes a {@link Relay} forwarded from this connection. */
    volatile long relayedBytes;

    ConnReader(Conn conn) {
        this.conn = conn;
        this.lock = conn.lock;
        this.ch = conn.ch;
    }

    // =====================================================================================
    // The goroutine's side
    // =====================================================================================

    /**
     * {@link Conn#read(byte[], int, int)} into {@code b[off, off+len)}, or else (b null) into
     * {@code dst}'s remaining {@code len} bytes; {@code len > 0}.
     */
    int read(byte[] b, ByteBuffer dst, int off, int len) throws IOException {
        Waiter w = null;
        while (true) {
            boolean request;
            Deadline until;
            int n;
            lock.lock();
            try {
                n = readCheck();
                if (n != 0) {
                    return n;
                }
                if (!inbound.isEmpty()) {
                    n = copyOut(b, dst, off, len);
                    request = resumeReadingLocked();
                } else {
                    w = Waiters.enqueue(readers, w);
                    request = requestReadLocked();
                    n = 0;
                }
                until = deadline;
            } finally {
                lock.unlock();
            }
            if (request) {
                ch.eventLoop().execute(readTask);
            }
            if (n > 0) {
                return n;
            }
            conn.park(w, readers, "IO wait (read)", until);
        }
    }

    /**
     * Caller holds the lock. Throws for a closed or failed connection and a passed deadline,
     * returns -1 at end of stream with nothing buffered, 0 to go on.
     */
    private int readCheck() throws IOException {
        if (conn.closed) {
            throw new NetClosedException("read " + conn);
        }
        // Go's prepareRead: a passed deadline fails the read even with bytes buffered.
        if (deadline.passed()) {
            throw new DeadlineExceededException("read " + conn);
        }
        if (!inbound.isEmpty()) {
            return 0; // buffered bytes are delivered even past EOF or an error, as the kernel does
        }
        if (conn.error != null) {
            throw Conn.copy(conn.error);
        }
        if (eof || conn.inactive) {
            return -1;
        }
        return 0;
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
        if (reading || inboundBytes > INBOUND_LOW || eof || conn.inactive || conn.error != null) {
            return false;
        }
        reading = true;
        return true;
    }

    /** Caller holds the lock: moves up to {@code len} queued bytes into {@code b} at {@code off}, or else into {@code dst}. */
    private int copyOut(byte[] b, ByteBuffer dst, int off, int len) {
        int n = 0;
        while (n < len && !inbound.isEmpty()) {
            ByteBuf buf = inbound.peekFirst();
            int k = Math.min(len - n, buf.readableBytes());
            if (b != null) {
                buf.readBytes(b, off + n, k);
            } else {
                int limit = dst.limit();
                dst.limit(dst.position() + k);
                buf.readBytes(dst);
                dst.limit(limit);
            }
            n += k;
            inboundBytes -= k;
            if (!buf.isReadable()) {
                inbound.pollFirst().release();
            }
        }
        return n;
    }

    /** Bytes queued now ({@link java.io.InputStream#available}). */
    int available() {
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

    /** Caller holds the lock: the read deadline ({@link Conn#setReadDeadline}); returns the parked readers to wake, which re-check. */
    ArrayList<Waiter> setDeadlineLocked(Deadline d) {
        deadline = d;
        return Waiters.take(readers);
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

    // =====================================================================================
    // The loop's side
    // =====================================================================================

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
        endOfInput();
    }

    /** On the loop: the loop read {@code buf}, which the caller hands over; it goes to the relay or the queue. */
    void received(ByteBuf buf) {
        Relay r = relay.get();
        if (r != null && r.offer(buf)) {
            return;
        }
        ArrayList<Waiter> wake;
        boolean stop = false;
        lock.lock();
        try {
            if (conn.closed || !buf.isReadable()) {
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
            ch.config().setAutoRead(false);
        }
        if (wake != null) {
            Waiters.wakeAll(wake);
        }
    }

    /** On the loop: the peer shut its output; readers wake to EOF once the queue is drained. */
    void inputEnded() {
        endOfInput();
        endRelay(); // the relay forwarded everything before the FIN
    }

    /** On the loop: no more input comes; reading ahead is off, and the readers wake to find EOF after the queue. */
    private void endOfInput() {
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
    }

    /** On the loop: a read burst ended; a relay from here flushes what it forwarded. */
    void readComplete() {
        Relay r = relay.get();
        if (r != null) {
            r.readComplete();
        }
    }

    /** Caller holds the lock: every parked reader, to wake after unlocking. */
    ArrayList<Waiter> takeParkedLocked() {
        return Waiters.take(readers);
    }

    /** Caller holds the lock and has set the connection's {@code closed}: the queue's buffers are released. */
    void releaseInboundLocked() {
        ByteBuf buf;
        while ((buf = inbound.pollFirst()) != null) {
            buf.release();
        }
        inboundBytes = 0;
    }

    // =====================================================================================
    // The relay reading from this connection
    // =====================================================================================

    /** Registers {@code r} as the relay reading from this connection, unless its state needs the goroutine's own reads. */
    boolean attachRelay(Relay r) {
        lock.lock();
        try {
            if (conn.closed || eof || conn.inactive || conn.error != null || deadline.set || !readers.isEmpty()) {
                return false;
            }
            return relay.attachLocked(r);
        } finally {
            lock.unlock();
        }
    }

    /** Caller holds the lock: unregisters {@code r} if it is the relay reading from here. */
    void detachRelayLocked(Relay r) {
        relay.detachLocked(r);
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

    /** True while a relay reads from this connection (for tests). */
    boolean relaying() {
        return relay.get() != null;
    }

    /** Ends the relay reading from here, if any; the caller changed the state that ends it under the lock first. */
    void endRelay() {
        relay.end();
    }
}
