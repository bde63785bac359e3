package io.gmp4j.net;

import io.gmp4j.runtime.ShortLock;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.unix.FileDescriptor;
import io.netty.channel.unix.UnixChannel;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;

/**
 * A connection's socket as the writing goroutine sees it: Go's write path, where the goroutine
 * makes the {@code write} syscall itself and involves the poller only when the socket's send
 * buffer is full. A {@link ConnWriter} tries it first whenever nothing it wrote earlier is still
 * queued on the loop, and hands the loop only what the kernel did not take, so the bytes stay
 * in order and a slow peer still meets Netty's watermarks.
 *
 * <h2>The channel's own descriptor, and Go's fdMutex</h2>
 * The goroutine writes on the channel's descriptor, while the loop closes it on its own
 * schedule (a reset read, a close, the loop's shutdown), and the kernel may hand the number to
 * the next socket at once: a write racing the close could land in another connection. So each
 * write holds a reference on the descriptor ({@link #state} HELD, one writer at a time: the
 * Conn's write lock serialises writes), and the close waits for it, as Go's {@code fdMutex}
 * makes {@code Close} wait for the reads and writes in flight before the real {@code close(2)}:
 * every close of a registered epoll channel's descriptor ({@code AbstractEpollChannel.doClose},
 * whatever started it: {@code close()}, {@code closeForcibly()}, a read or write error, the
 * loop's shutdown) first cancels the channel's registration on the loop, and the cancel
 * ({@link EpollKeepRegistered}) calls {@link #closing}, which takes the reference (waiting, as
 * a {@link ShortLock} waiter, for a write in flight: a non-blocking syscall of microseconds)
 * and keeps it for good. The number cannot be reused before {@code close(2)}, which comes
 * after. A writer is opened only for a channel whose registration is one of ours, so no
 * channel with a writer is closed without that cancel; Netty closes a descriptor off the loop,
 * before the cancel, only with {@code SO_LINGER} set, which no {@link Conn} sets.
 *
 * <p>Epoll channels only; NIO channels get no writer ({@link #open} returns null) and every
 * write goes through the loop; so does a process started with
 * {@code -Dgmp4j.netpoll.directWrite=false} ({@link #enabled}).
 */
final class DirectWriter {
    /**
     * On by default, off with {@code -Dgmp4j.netpoll.directWrite=false}. Netty's lost epoll
     * registration, which this path made likelier, is worked around
     * ({@link EpollKeepRegistered}, pinned by {@code ConnTest.writesAfterThePeersFinAllArrive}).
     * Read when a connection opens.
     */
    static volatile boolean enabled = io.gmp4j.Tunable.NETPOLL_DIRECTWRITE.onUnlessFalse();

    /**
     * Writes of at most this many bytes are copied into the writer's {@link #scratch} memory and
     * written from there, instead of into a pooled buffer allocated and released per write
     * (that pair cost about 0.7 µs of a 64-byte echo's 12 µs at 256 connections).
     */
    static final int SCRATCH_BYTES = 4096;

    /** No write in flight, the descriptor open. */
    private static final int FREE = 0;
    /** A write uses the descriptor, or {@link #closing} is taking it. */
    private static final int HELD = 1;
    /** The descriptor is being closed or is closed: no write starts. */
    private static final int CLOSED = 2;
    private static final VarHandle STATE;

    static {
        try {
            STATE = MethodHandles.lookup().findVarHandle(DirectWriter.class, "state", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The channel's own descriptor (Netty's object; its {@code close} is Netty's). */
    private final FileDescriptor fd;
    private final ByteBufAllocator alloc;
    /**
     * Native memory for small writes ({@link #writeSmall}), allocated at the first one: only a
     * write in flight uses it, and {@link #closing} releases it, when no write is in flight and
     * none can start.
     */
    private ByteBuf scratch;
    /**
     * FREE, HELD or CLOSED. Invariants: a write makes its syscall only between its
     * {@code FREE -> HELD} CAS and its release store of FREE; CLOSED is set only by
     * {@link #closing}, on the loop, after it took HELD itself, so no write is in flight then
     * and none starts after; {@code close(2)} of {@link #fd} comes after {@link #closing}
     * returned. So every write's syscall completed before the descriptor's number was free.
     */
    @SuppressWarnings("unused") // through STATE
    private volatile int state;

    private DirectWriter(FileDescriptor fd, ByteBufAllocator alloc) {
        this.fd = fd;
        this.alloc = alloc;
    }

    /**
     * A writer for {@code ch}'s socket, closed with the channel; null where writes must go
     * through the loop (NIO, the path turned off, or a registration that is not ours). Called
     * on the channel's loop (from its initializer), where the channel cannot close between the
     * check and the hook: every close runs there.
     */
    static DirectWriter open(Channel ch) {
        if (!enabled || !(ch instanceof UnixChannel u) || !u.fd().isOpen()) {
            return null;
        }
        DirectWriter w = new DirectWriter(u.fd(), ch.alloc());
        return EpollKeepRegistered.closeFirst(ch, w) ? w : null;
    }

    /** Takes the descriptor for one write: false once it is closing (the caller goes through the loop). */
    private boolean acquire() {
        return STATE.compareAndSet(this, FREE, HELD);
    }

    /** Ends a write: the release store publishes "no write in flight" to {@link #closing}'s CAS. */
    private void release() {
        STATE.setRelease(this, FREE);
    }

    /**
     * Writes what the socket takes now of {@code buf}'s readable bytes, without blocking, and
     * advances its reader index past them.
     *
     * @return false if the channel has closed (nothing written; the caller goes through the loop,
     *         which reports the closed channel)
     * @throws IOException when the socket failed (reset by peer, broken pipe)
     */
    boolean write(ByteBuf buf) throws IOException {
        if (!acquire()) {
            return false; // closing: writes are serialised by the Conn's write lock, so HELD is closing's
        }
        try {
            // EAGAIN reads as 0 bytes: the caller hands the whole buffer to the loop.
            int n = fd.writeAddress(buf.memoryAddress(), buf.readerIndex(), buf.writerIndex());
            buf.skipBytes(n);
            return true;
        } finally {
            release();
        }
    }

    /**
     * Writes what the socket takes now of {@code b[off, off+len)}, {@code len} at most
     * {@link #SCRATCH_BYTES}, through the scratch memory, without blocking.
     *
     * @return the bytes written (0 when the socket is full), or -1 if the channel has closed or
     *         no scratch memory with an address could be had (nothing written; the caller goes
     *         through the loop)
     * @throws IOException when the socket failed (reset by peer, broken pipe)
     */
    int writeSmall(byte[] b, int off, int len) throws IOException {
        return writeScratch(b, null, off, len);
    }

    /** {@link #writeSmall(byte[], int, int)} for all of {@code src}'s remaining bytes (its position does not move). */
    int writeSmall(ByteBuffer src) throws IOException {
        return writeScratch(null, src, 0, src.remaining());
    }

    /** Copies {@code b[off, off+len)}, or else {@code src}'s remaining bytes, into the scratch memory and writes them. */
    private int writeScratch(byte[] b, ByteBuffer src, int off, int len) throws IOException {
        if (!acquire()) {
            return -1;
        }
        try {
            ByteBuf s = scratch();
            if (s == null) {
                return -1;
            }
            if (b != null) {
                s.setBytes(0, b, off, len);
            } else {
                int pos = src.position();
                s.setBytes(0, src);
                src.position(pos); // the caller moves it past what the socket took
            }
            return fd.writeAddress(s.memoryAddress(), 0, len);
        } finally {
            release();
        }
    }

    /** The scratch memory, allocated at the first call; null if the allocator's buffers have no address. A write in flight only. */
    private ByteBuf scratch() {
        ByteBuf s = scratch;
        if (s == null) {
            s = alloc.directBuffer(SCRATCH_BYTES, SCRATCH_BYTES);
            if (!s.hasMemoryAddress()) {
                s.release();
                return null;
            }
            scratch = s;
        }
        return s;
    }

    /**
     * The channel's descriptor is about to be closed (on its loop, from the registration's
     * cancel, right before Netty's {@code close(2)}): waits for the write in flight, if any, and
     * from then on no write starts. Idempotent (Netty cancels a closing channel's registration
     * twice).
     */
    void closing() {
        if ((int) STATE.getVolatile(this) == CLOSED) {
            return; // only this method, on the loop, sets CLOSED
        }
        if (!STATE.compareAndSet(this, FREE, HELD)) {
            // A write in flight: it never parks and makes one non-blocking syscall, so this
            // waits for a running thread, as a ShortLock waiter does.
            ShortLock.acquireSlow(STATE, this, true);
        }
        if (scratch != null) {
            scratch.release(); // HELD by us: no write is in flight, none can start
            scratch = null;
        }
        STATE.setVolatile(this, CLOSED);
    }
}
