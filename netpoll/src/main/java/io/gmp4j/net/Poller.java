package io.gmp4j.net;

import io.gmp4j.GoRuntime;
import io.gmp4j.runtime.Scheduler;
import io.gmp4j.runtime.Waiter;
import io.gmp4j.runtime.spi.Netpoll;
import io.gmp4j.runtime.spi.NetpollHost;
import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;

import java.util.Locale;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One runtime's network poller: Netty event loop(s) that the runtime owns, reports in its stats
 * and shuts down with it; the scheduler sees it as a {@link Netpoll} and it talks to the
 * scheduler through the {@link NetpollHost} it got at the attach. Two shapes (issue 4), chosen per process with
 * {@code -Dgmp4j.netpoll=thread|perp}:
 * <ul>
 *   <li>{@code thread} ({@link ThreadPoller}): one loop on a platform thread of its own, an M
 *       without a P like sysmon, injecting each turn's readied goroutines as one batch;</li>
 *   <li>{@code perp} ({@link ProcPoller}): one loop per P, owned by a poll goroutine that the
 *       scheduler readies where Go calls {@code netpoll}: before stealing, and by an M about
 *       to go idle (which then blocks in the loop inside a syscall).</li>
 * </ul>
 *
 * <h2>Waiters</h2>
 * {@link #waiters} counts threads parked in {@link #park}: {@code checkdead} sees them
 * through {@link #netpollAnyWaiters} and does not call a goroutine waiting for a peer deadlocked.
 * The count rises before the park and falls after it returns, so it over-counts briefly,
 * never under-counts.
 */
abstract class Poller implements Netpoll {
    /** The transports: epoll (native) when it loads, NIO otherwise; {@code -Dgmp4j.netpoll.transport=nio} forces NIO. */
    enum Transport {
        EPOLL("epoll", EpollSocketChannel.class, EpollServerSocketChannel.class),
        NIO("nio", NioSocketChannel.class, NioServerSocketChannel.class);

        final String word;
        final Class<? extends Channel> socket;
        final Class<? extends ServerChannel> server;

        Transport(String word, Class<? extends Channel> socket, Class<? extends ServerChannel> server) {
            this.word = word;
            this.socket = socket;
            this.server = server;
        }

        IoHandlerFactory factory() {
            return this == EPOLL ? EpollKeepRegistered.factory() : NioIoHandler.newFactory();
        }

        static Transport choose() {
            if ("nio".equalsIgnoreCase(io.gmp4j.Tunable.NETPOLL_TRANSPORT.value())) {
                return NIO;
            }
            return Epoll.isAvailable() ? EPOLL : NIO;
        }
    }

    final NetpollHost host;
    final Scheduler sched;
    final Transport transport;
    private final AtomicInteger waiters = new AtomicInteger();
    /** Open connections and listeners, for the stats and for releasing buffers on shutdown. */
    final Set<Conn> conns = ConcurrentHashMap.newKeySet();
    final Set<Listener> listeners = ConcurrentHashMap.newKeySet();

    Poller(NetpollHost host) {
        this.host = host;
        this.sched = host.scheduler();
        this.transport = Transport.choose();
        NetErrors.load(); // the error path's classes, while a class file can still be opened
    }

    /** The poller of the calling goroutine's runtime (the default runtime's for other threads), started on first use. */
    static Poller current() {
        Scheduler s = Scheduler.current();
        if (s == null) {
            s = Scheduler.of(GoRuntime.defaultRuntime());
        }
        Netpoll np = s.attachNetpoll(host -> perP() ? new ProcPoller(host) : new ThreadPoller(host));
        if (!(np instanceof Poller p)) {
            throw new IllegalStateException("runtime " + s + " already has another network poller: " + np);
        }
        p.attached();
        return p;
    }

    /** {@code -Dgmp4j.netpoll}: {@code perp} (the default) or {@code thread}. */
    static boolean perP() {
        String mode = java.util.Objects.requireNonNullElse(io.gmp4j.Tunable.NETPOLL.value(), "perp").toLowerCase(Locale.ROOT);
        return switch (mode) {
            case "thread" -> false;
            case "perp" -> true;
            default -> throw new IllegalArgumentException(
                    "-Dgmp4j.netpoll=" + mode + ": expected thread (one poller thread) or perp (a loop per P)");
        };
    }

    /** Called by every user after {@link #current} found this poller attached: starts it once. */
    abstract void attached();

    /** The loops new channels register with: a listener's and its connections', a dial's. */
    abstract EventLoopGroup group();

    /** The loop a dial registers with. */
    EventLoopGroup dialLoop() {
        return group();
    }

    /** True once every loop has terminated (the runtime closed). */
    abstract boolean terminated();

    /** Waits up to {@code millis} for {@link #terminated} and the threads or goroutines that ran the loops. */
    abstract boolean awaitStopped(long millis) throws InterruptedException;

    /** Ms blocked in a loop for I/O (only per-P loops block an M of the runtime). */
    int blockedLoops() {
        return 0;
    }

    /** One new channel of ours (a connection or listener) on one of {@link #group}'s loops. */
    void channelOpened(Channel ch) {
    }

    /**
     * Parks the calling thread on {@code w} (enqueued by the caller under its lock) until woken
     * or, when {@code timed}, until {@code deadline} ({@link System#nanoTime}).
     *
     * @return false if the deadline won
     */
    boolean park(Waiter w, String reason, boolean timed, long deadline) {
        waiters.incrementAndGet(); // before the park: checkdead must not miss us
        try {
            if (timed) {
                return w.park(reason, deadline);
            }
            w.park(reason);
            return true;
        } finally {
            waiters.decrementAndGet();
        }
    }

    @Override
    public boolean netpollAnyWaiters() {
        return waiters.get() > 0;
    }

    /** What {@link #describe} adds after the common part. */
    abstract String describeLoops();

    @Override
    public String describe() {
        return transport.word + " conns=" + conns.size() + " listeners=" + listeners.size() + " waiters="
                + waiters.get() + " " + describeLoops();
    }

    /** Releases what open connections still hold once their loop is gone. */
    void discardConns() {
        for (Conn c : conns) {
            c.discard();
        }
    }

    @Override
    public String toString() {
        return "netpoll[" + describe() + "]";
    }
}
