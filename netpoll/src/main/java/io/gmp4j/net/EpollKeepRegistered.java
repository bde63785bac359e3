package io.gmp4j.net;

import io.netty.channel.Channel;
import io.netty.channel.IoHandle;
import io.netty.channel.IoHandler;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.IoOps;
import io.netty.channel.IoRegistration;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollIoOps;

import java.util.concurrent.ConcurrentHashMap;

/**
 * Netty 4.2.18's epoll handler with a workaround for a lost registration.
 *
 * <p>The bug: when a channel's interest set becomes empty (its input shut down and no flush
 * pending), {@code DefaultEpollIoRegistration.submit} deletes the descriptor from the epoll set
 * but leaves its own state at "added". The channel's next interest, EPOLLOUT for a write the
 * socket could not take at once, is then an {@code epoll_ctl(MOD)} that fails with ENOENT, and
 * Netty shuts the channel's output and drops what was queued: the peer reads an early EOF.
 * A half-closed echo of 16 MiB under load loses bytes that way in about 1.5% of runs without
 * the workaround.
 *
 * <p>The workaround keeps the descriptor in the set: an empty interest set is submitted as
 * {@code EPOLLET} alone, no events, edge-triggered, so the hang-up and error events the kernel
 * always reports arrive once, not on every wait (the reason Netty deletes such descriptors).
 *
 * <h2>The close hook</h2>
 * The registration is also where a channel's close can be made to wait for the goroutine's
 * write in flight ({@link DirectWriter}): Netty's {@code AbstractEpollChannel.doClose}, the
 * one place that closes a channel's descriptor, cancels a registered channel's registration on
 * the loop and then calls {@code close(2)}; so {@link Registration#cancel} first closes the
 * channel's writer ({@link DirectWriter#closing}). A deregistered channel's registration was
 * cancelled when it was deregistered, so its writer was closed then.
 */
final class EpollKeepRegistered {
    /**
     * Our registrations not yet cancelled, by handle (a channel's {@code unsafe()}), so a
     * channel's initializer can find its own ({@link #closeFirst}). Added and removed on the
     * handle's loop.
     */
    private static final ConcurrentHashMap<IoHandle, Registration> REGISTRATIONS = new ConcurrentHashMap<>();

    private EpollKeepRegistered() {
    }

    /**
     * Makes the cancel of {@code ch}'s registration close {@code w} first; false if {@code ch}
     * is not registered through this handler (then no close would wait for {@code w}'s writes).
     * On {@code ch}'s loop.
     */
    static boolean closeFirst(Channel ch, DirectWriter w) {
        Registration r = REGISTRATIONS.get(ch.unsafe());
        if (r == null) {
            return false;
        }
        r.writer = w;
        return true;
    }

    /** Netty's epoll handler factory, with registrations that never leave the epoll set. */
    static IoHandlerFactory factory() {
        IoHandlerFactory netty = EpollIoHandler.newFactory();
        return executor -> new Handler(netty.newHandler(executor));
    }

    private static final class Handler extends DelegatingIoHandler {
        Handler(IoHandler delegate) {
            super(delegate);
        }

        @Override
        public IoRegistration register(IoHandle handle) throws Exception {
            Registration r = new Registration(handle, delegate.register(handle));
            REGISTRATIONS.put(handle, r);
            return r;
        }
    }

    private static final class Registration implements IoRegistration {
        private final IoHandle handle;
        private final IoRegistration delegate;
        /** The channel's writer, closed before the registration is cancelled; loop only. */
        private DirectWriter writer;
        /**
         * A non-empty interest set was submitted, so Netty has added the descriptor to the set.
         * Before that an empty one stays Netty's (it adds nothing until the channel is active).
         * Written and read on the loop only.
         */
        private boolean added;

        Registration(IoHandle handle, IoRegistration delegate) {
            this.handle = handle;
            this.delegate = delegate;
        }

        @Override
        public <T> T attachment() {
            return delegate.attachment();
        }

        @Override
        public long submit(IoOps ops) {
            if (ops instanceof EpollIoOps e && e.value() == EpollIoOps.NONE.value()) {
                return added ? delegate.submit(EpollIoOps.EPOLLET) : delegate.submit(ops);
            }
            added = true;
            return delegate.submit(ops);
        }

        @Override
        public boolean isValid() {
            return delegate.isValid();
        }

        @Override
        public boolean cancel() {
            REGISTRATIONS.remove(handle, this);
            DirectWriter w = writer;
            if (w != null) {
                writer = null;
                w.closing(); // before Netty's close(2) of the descriptor, which follows this cancel
            }
            return delegate.cancel();
        }
    }
}
