package io.gmp4j.net;

import io.gmp4j.runtime.ShortLock;
import io.gmp4j.runtime.Waiter;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashSet;

/**
 * A TCP listener: Go's {@code net.Listener}. {@link #accept} parks the calling goroutine until
 * a connection arrives.
 *
 * <p>The server channel's autoRead is off, as a connection's is: an acceptor with no connection
 * queued asks the loop for one read (Netty accepts up to {@code maxMessagesPerRead}
 * connections from the kernel's backlog) and parks; each accepted channel is queued here and
 * wakes the acceptors. Connections the program does not accept wait in the kernel's backlog,
 * not here.
 *
 * <p>Invariants (under {@link #lock}): {@code backlog} is non-empty only while no acceptor
 * waits; an accept read is requested only while {@code backlog} is empty; once
 * {@code closed}, the backlog is empty and every connection that still arrives is closed.
 */
public final class Listener implements AutoCloseable {
    final Poller poller;
    private Channel server;
    final Handler handler = new Handler();

    private final ShortLock lock = new ShortLock();
    // --- guarded by lock
    private final ArrayDeque<Conn> backlog = new ArrayDeque<>();
    private final ArrayList<Waiter> acceptors = new ArrayList<>(1);
    private boolean acceptRequested;
    private boolean closed;
    /** Most connections accepted and not yet closed; 0 for no limit ({@link #limit}). */
    private int maxOpen;
    /** Connections returned by accept and not yet closed, counted only under a limit. */
    private int open;
    /**
     * Channels the kernel's accept returned that are not yet in {@code backlog} (each is
     * registered on its own loop first, then offered): added on the server channel's loop,
     * removed by {@link #offer}, or by {@link #gone} for one that closed on the way (its
     * registration failed). While any are on their way, an accept failure is not reported and
     * no further accept is asked for: the acceptors get those first.
     */
    private final HashSet<Channel> arriving = new HashSet<>();
    private final ChannelFutureListener gone = f -> gone(f.channel());
    /** The last accept's failure on the loop (descriptors exhausted, say), for the next {@link #accept} to throw. */
    private Throwable error;

    Listener(Poller poller) {
        this.poller = poller;
    }

    void bound(Channel server) {
        this.server = server;
    }

    /**
     * Waits for and returns the next connection.
     *
     * <p>The failures, as Go's accept loop tells them apart:
     * <ul>
     *   <li>{@link NetClosedException} ({@code accept tcp 127.0.0.1:7000: use of closed network
     *       connection}, Go's {@code net.ErrClosed}): the listener is closed; stop accepting.</li>
     *   <li>a {@link java.net.SocketException} for which {@link Net#isTemporary} is true,
     *       {@code accept tcp 127.0.0.1:7000: accept4: too many open files} (EMFILE; ENFILE
     *       reads "too many open files in system"): the process is out of descriptors. The
     *       listener stays open and the connection stays in the kernel's backlog; pause (Go's
     *       {@code net/http} sleeps 5 ms, doubling to 1 s) and call accept again, which succeeds
     *       once descriptors are free. Each failure is reported to one accept.</li>
     * </ul>
     *
     * @throws NetClosedException when the listener is closed (also for an accept parked at the time)
     * @throws java.net.SocketException when the kernel's accept failed ({@link Net#isTemporary}: retry)
     */
    public Conn accept() throws IOException {
        Waiter w = null;
        while (true) {
            boolean request = false;
            lock.lock();
            try {
                if (closed) {
                    throw new NetClosedException("accept " + this);
                }
                boolean slot = maxOpen == 0 || open < maxOpen;
                Conn c = slot ? backlog.pollFirst() : null;
                if (c != null) {
                    if (maxOpen != 0) {
                        open++;
                        c.onClose = this::releaseSlot; // before the conn escapes to the caller
                    }
                    return c;
                }
                if (error != null) {
                    Throwable cause = error;
                    error = null; // reported once; the next accept asks the kernel again
                    throw NetErrors.accept(toString(), cause);
                }
                w = Waiters.enqueue(acceptors, w);
                if (slot && !acceptRequested) { // at the limit, leave connections in the kernel's backlog
                    acceptRequested = true;
                    request = true;
                }
            } finally {
                lock.unlock();
            }
            if (request) {
                server.eventLoop().execute(this::acceptOnLoop);
            }
            poller.park(w, "IO wait (accept)", false, 0);
        }
    }

    /**
     * Go's {@code netutil.LimitListener}: from now on at most {@code n} connections accepted from
     * this listener are open at once; {@link #accept} waits for one of them to close. Call
     * before the first accept.
     */
    public Listener limit(int n) {
        if (n < 1) {
            throw new IllegalArgumentException("limit must be >= 1, got " + n);
        }
        lock.lock();
        try {
            maxOpen = n;
        } finally {
            lock.unlock();
        }
        return this;
    }

    /** A connection of a limited listener closed: free its slot and let the acceptors re-check. */
    private void releaseSlot() {
        ArrayList<Waiter> wake;
        lock.lock();
        try {
            open--;
            wake = Waiters.take(acceptors);
        } finally {
            lock.unlock();
        }
        Waiters.wakeAll(wake);
    }

    /** The accept request, on the loop; a closed server channel wakes the acceptors instead (they find it closed). */
    private void acceptOnLoop() {
        if (server.isActive()) {
            server.read();
            return;
        }
        ArrayList<Waiter> wake;
        lock.lock();
        try {
            acceptRequested = false;
            closed = true;
            wake = Waiters.take(acceptors);
        } finally {
            lock.unlock();
        }
        Waiters.wakeAll(wake);
    }

    /** The address it listens on (with the port the system chose for port 0). */
    public InetSocketAddress address() {
        return (InetSocketAddress) server.localAddress();
    }

    /**
     * Marks the listener closed, fails the goroutines waiting in accept, closes the accepted
     * connections nobody took, and forgets the listener. Returns false if it was already closed
     * (what remained queued is dropped all the same).
     */
    private boolean markClosed() {
        ArrayList<Waiter> wake;
        ArrayList<Conn> drop;
        boolean wasOpen;
        lock.lock();
        try {
            wasOpen = !closed;
            closed = true;
            wake = Waiters.take(acceptors);
            drop = new ArrayList<>(backlog);
            backlog.clear();
        } finally {
            lock.unlock();
        }
        Waiters.wakeAll(wake);
        for (Conn c : drop) {
            c.close();
        }
        poller.listeners.remove(this);
        return wasOpen;
    }

    /**
     * Stops listening: goroutines parked in {@link #accept} wake with
     * {@link NetClosedException}, connections accepted but not yet returned are closed.
     * Returns once the socket is closed. Idempotent.
     */
    @Override
    public void close() {
        if (!markClosed()) {
            return;
        }
        // Wait for the socket to close, as Go's Close does: a dial right after close must find
        // the port closed, not queue in the backlog of a socket about to close (and be reset).
        Net.await(poller, server.close(), "IO wait (close)");
    }

    /** On the loop: a connection was accepted and its channel initialised. */
    void offer(Conn c) {
        ArrayList<Waiter> wake;
        lock.lock();
        try {
            arriving.remove(c.ch);
            if (!closed) {
                backlog.addLast(c);
                wake = Waiters.take(acceptors);
            } else {
                wake = null;
            }
        } finally {
            lock.unlock();
        }
        if (wake == null) {
            c.close();
            return;
        }
        Waiters.wakeAll(wake);
    }

    /**
     * An accepted channel closed: if it never reached the backlog (its registration failed),
     * the acceptors that counted on it look again (they ask the kernel for the next).
     */
    private void gone(Channel ch) {
        ArrayList<Waiter> wake;
        lock.lock();
        try {
            wake = arriving.remove(ch) ? Waiters.take(acceptors) : null;
        } finally {
            lock.unlock();
        }
        if (wake != null) {
            Waiters.wakeAll(wake);
        }
    }

    /** Acceptors parked now (tests). */
    int parkedAcceptors() {
        lock.lock();
        try {
            return acceptors.size();
        } finally {
            lock.unlock();
        }
    }


    @Override
    public String toString() {
        InetSocketAddress a = server == null ? null : (InetSocketAddress) server.localAddress();
        return "tcp " + (a == null ? "?" : NetErrors.hostPort(a));
    }

    /** The server channel's handler, ahead of Netty's acceptor; runs on the poller thread. */
    final class Handler extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            Channel child = (Channel) msg;
            lock.lock();
            try {
                arriving.add(child); // before the acceptor registers it: offer comes after
            } finally {
                lock.unlock();
            }
            child.closeFuture().addListener(gone);
            ctx.fireChannelRead(child);
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            boolean again;
            lock.lock();
            try {
                acceptRequested = false;
                // Acceptors that arrived during the burst, or a burst that accepted nothing.
                again = backlog.isEmpty() && arriving.isEmpty() && !acceptors.isEmpty() && !closed
                        && (maxOpen == 0 || open < maxOpen);
                if (again) {
                    acceptRequested = true;
                }
            } finally {
                lock.unlock();
            }
            if (again) {
                ctx.read();
            }
            ctx.fireChannelReadComplete();
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            // A burst that accepted nothing leaves its read armed (Netty clears readPending only
            // when it accepts one), as may readComplete's request above: it would take the next
            // descriptor freed for a connection nobody asked for. Turning autoRead on and off
            // clears the pending read (autoReadCleared); a later accept asks again.
            ctx.channel().config().setAutoRead(true);
            ctx.channel().config().setAutoRead(false);
            ArrayList<Waiter> wake;
            lock.lock();
            try {
                acceptRequested = false;
                if (acceptors.isEmpty() || !arriving.isEmpty()) {
                    // Nobody waits, or connections of this burst are on their way to them: an
                    // accept that finds the backlog empty later asks the kernel itself, so it
                    // must not inherit this failure.
                    return;
                }
                error = cause;
                wake = Waiters.take(acceptors);
            } finally {
                lock.unlock();
            }
            Waiters.wakeAll(wake);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            // The loop shut down (runtime closed) or the socket failed: fail accepts as closed.
            markClosed();
            ctx.fireChannelInactive();
        }
    }
}
