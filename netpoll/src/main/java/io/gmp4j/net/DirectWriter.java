package io.gmp4j.net;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.unix.FileDescriptor;
import io.netty.channel.unix.UnixChannel;

import java.io.IOException;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.nio.ByteBuffer;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A connection's socket as the writing goroutine sees it: Go's write path, where the goroutine
 * makes the {@code write} syscall itself and involves the poller only when the socket's send
 * buffer is full. {@link Conn} tries it first whenever nothing it wrote earlier is still
 * queued on the loop, and hands the loop only what the kernel did not take, so the bytes stay
 * in order and a slow peer still meets Netty's watermarks.
 *
 * <h2>Why a second descriptor</h2>
 * The loop closes the channel's descriptor on its own schedule (a reset read, a close, the
 * loop's shutdown), and the kernel may hand that number to the next socket at once: a write
 * racing the close could land in another connection. So the writer writes to a duplicate (close-on-exec)
 * of the descriptor that it alone owns, and closes it only when the channel has closed and no
 * write is in flight ({@link #state}). Closing the channel's own descriptor takes the socket
 * out of epoll (Netty deletes it first) but sends no FIN while the duplicate is open; the
 * channel's close listener closes the duplicate right after, on the same loop turn.
 *
 * <p>Epoll channels only; NIO channels, or a process whose {@code fcntl} cannot be linked, get
 * no writer ({@link #open} returns null) and every write goes through the loop; so does a
 * process started with {@code -Dgmp4j.netpoll.directWrite=false} ({@link #enabled}).
 */
final class DirectWriter {
    /**
     * On by default, off with {@code -Dgmp4j.netpoll.directWrite=false}. It was opt-in from
     * 2026-12-01 to 2026-12-02 because the proxy benchmark failed now and then with it on (a
     * FIN nobody asked for, answers never relayed). The cause was the scheduler's, not this
     * path's: a poll goroutine's batch kept on the M, which could strand a readied goroutine
     * ({@code Scheduler.beginBatch}; {@code benchmarks/debug/early-close/} has the hunt). The
     * path made it likelier, not possible. Netty's lost epoll registration, which the path also
     * made likelier, is worked around ({@link EpollKeepRegistered}, pinned by
     * {@code ConnTest.writesAfterThePeersFinAllArrive}). Read when a connection opens.
     */
    static volatile boolean enabled = !"false".equals(System.getProperty("gmp4j.netpoll.directWrite"));
    /** Linux's {@code F_DUPFD_CLOEXEC} (fcntl.h): duplicate to the lowest free descriptor, close-on-exec set. */
    private static final int F_DUPFD_CLOEXEC = 1030;
    private static final MethodHandle DUP = linkDup();

    /**
     * Writes of at most this many bytes are copied into the writer's {@link #scratch} memory and
     * written from there, instead of into a pooled buffer allocated and released per write
     * (that pair cost about 0.7 µs of a 64-byte echo's 12 µs at 256 connections).
     */
    static final int SCRATCH_BYTES = 4096;

    private static final int INFLIGHT = 1;
    private static final int CLOSED = 2;

    private final FileDescriptor fd;
    private final ByteBufAllocator alloc;
    /**
     * Native memory for small writes ({@link #writeSmall}), allocated at the first one: only a
     * write in flight uses it (writes are serialised by the Conn's write lock), and it is
     * released with the descriptor, when no write is in flight and none can start.
     */
    private ByteBuf scratch;
    /**
     * INFLIGHT while a write uses {@link #fd}, CLOSED once the channel closed. Invariant: the
     * descriptor is closed exactly once, by whoever clears the last of the two conditions that
     * keep it open: {@link #close} if no write is in flight, else the write that ends after it.
     */
    private final AtomicInteger state = new AtomicInteger();

    private DirectWriter(int fd, ByteBufAllocator alloc) {
        this.fd = new FileDescriptor(fd);
        this.alloc = alloc;
    }

    /**
     * A writer for {@code ch}'s socket, closed with the channel; null where writes must go
     * through the loop. Called on the channel's loop (from its initializer), where the channel's
     * descriptor cannot be closed between the check and the {@code dup}: every close runs there.
     */
    static DirectWriter open(Channel ch) {
        if (!enabled || DUP == null || !(ch instanceof UnixChannel u) || !u.fd().isOpen()) {
            return null;
        }
        int dup;
        try {
            dup = (int) DUP.invokeExact(u.fd().intValue());
        } catch (Throwable t) {
            return null;
        }
        if (dup < 0) {
            return null; // EMFILE and friends: this connection writes through the loop
        }
        DirectWriter w = new DirectWriter(dup, ch.alloc());
        ch.closeFuture().addListener(f -> w.close());
        return w;
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
        if (!state.compareAndSet(0, INFLIGHT)) {
            return false; // CLOSED; writes are serialised by the Conn's write lock, so never INFLIGHT
        }
        try {
            // EAGAIN reads as 0 bytes: the caller hands the whole buffer to the loop.
            int n = fd.writeAddress(buf.memoryAddress(), buf.readerIndex(), buf.writerIndex());
            buf.skipBytes(n);
            return true;
        } finally {
            if ((state.getAndUpdate(s -> s & ~INFLIGHT) & CLOSED) != 0) {
                closeQuietly();
            }
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
        if (!state.compareAndSet(0, INFLIGHT)) {
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
            if ((state.getAndUpdate(x -> x & ~INFLIGHT) & CLOSED) != 0) {
                closeQuietly();
            }
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

    /** The duplicate descriptor's number (for tests: its flags in {@code /proc/self/fdinfo}). */
    int descriptor() {
        return fd.intValue();
    }

    /** The channel closed: close the duplicate now, or let the write in flight close it. */
    private void close() {
        int old = state.getAndUpdate(s -> s | CLOSED);
        if ((old & (CLOSED | INFLIGHT)) == 0) {
            closeQuietly();
        }
    }

    private void closeQuietly() {
        if (scratch != null) {
            scratch.release(); // no write is in flight and none can start: CLOSED is set
            scratch = null;
        }
        try {
            fd.close();
        } catch (IOException ignored) {
            // the descriptor is ours and valid; close reports only what the socket already did
        }
    }

    /**
     * A duplicate of a descriptor with close-on-exec set, as libc's {@code fcntl(fd,
     * F_DUPFD_CLOEXEC, 0)}; null where the linker cannot find it. Not plain {@code dup}, which
     * clears close-on-exec: a process started by a fork and exec (outside the JDK's launcher,
     * which closes every descriptor itself) would inherit the duplicate and hold the connection
     * open, so the peer would see no FIN when we close.
     */
    private static MethodHandle linkDup() {
        try {
            Linker linker = Linker.nativeLinker();
            return linker.defaultLookup().find("fcntl")
                    .map(f -> linker.downcallHandle(f,
                            FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT),
                            Linker.Option.firstVariadicArg(2)))
                    .map(h -> MethodHandles.insertArguments(h, 1, F_DUPFD_CLOEXEC, 0))
                    .orElse(null);
        } catch (RuntimeException | LinkageError e) {
            return null;
        }
    }
}
