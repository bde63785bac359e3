package io.gmp4j.net;

import io.gmp4j.runtime.Waiter;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.AdaptiveRecvByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.RecvByteBufAllocator;
import io.netty.channel.WriteBufferWaterMark;

import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Go's {@code net.Listen} and {@code net.Dial} for TCP. See the package documentation for the
 * design. Call from a goroutine: the connection belongs to that goroutine's runtime (from any
 * other thread, to the default runtime), and any goroutine may then use it.
 */
public final class Net {
    /** Outbound bytes queued per connection above which writers park (Netty's high watermark). */
    static final int HIGH_WATER = 128 * 1024;
    /** Writers wake when the outbound queue drains below this. */
    static final int LOW_WATER = 32 * 1024;
    /** How long a closed connection keeps sending what was written before close. */
    static final long LINGER_SECONDS = 5;
    /**
     * The receive buffers: adaptive between 512 B and 64 KiB, at most 4 per read request, so a
     * connection buffers at most 256 KiB that nobody has read.
     */
    static final int MAX_READS_PER_REQUEST = 4;

    private Net() {
    }

    /**
     * Go's {@code net.Listen("tcp", address)}: {@code "host:port"}, {@code ":port"} (all
     * interfaces), {@code "[::1]:port"}; port 0 picks a free port ({@link Listener#address}).
     */
    public static Listener listen(String address) throws IOException {
        return listen(parse(address));
    }

    /** Listens on {@code address} (an {@link InetSocketAddress}). */
    public static Listener listen(SocketAddress address) throws IOException {
        Poller p = Poller.current();
        Listener l = new Listener(p);
        ServerBootstrap b = new ServerBootstrap()
                .group(p.group())
                .channel(p.transport.server)
                .option(ChannelOption.AUTO_READ, false)
                .option(ChannelOption.SO_REUSEADDR, true)
                .option(ChannelOption.RCVBUF_ALLOCATOR, recvAllocator())
                .handler(l.handler)
                .childOption(ChannelOption.AUTO_READ, false)
                .childOption(ChannelOption.ALLOW_HALF_CLOSURE, true)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childOption(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(LOW_WATER, HIGH_WATER))
                .childOption(ChannelOption.RCVBUF_ALLOCATOR, recvAllocator())
                .childHandler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        Conn c = new Conn(p, ch);
                        ch.pipeline().addLast(c.handler);
                        p.conns.add(c);
                        p.channelOpened(ch);
                        l.offer(c);
                    }
                });
        ChannelFuture f = b.bind(address);
        await(p, f, "IO wait (listen)");
        if (!f.isSuccess()) {
            throw NetErrors.listen(address, f.cause());
        }
        l.bound(f.channel());
        p.listeners.add(l);
        p.channelOpened(f.channel());
        return l;
    }

    /** Go's {@code net.Dial("tcp", address)}; see {@link #listen(String)} for the forms. */
    public static Conn dial(String address) throws IOException {
        return dial(parse(address), null);
    }

    /** Go's {@code net.DialTimeout}: fails with {@link DeadlineExceededException} after {@code timeout}. */
    public static Conn dial(String address, Duration timeout) throws IOException {
        return dial(parse(address), timeout);
    }

    /** Dials {@code address}, without a timeout of our own (the system's applies). */
    public static Conn dial(SocketAddress address) throws IOException {
        return dial(address, null);
    }

    /**
     * Dials {@code address}; a null {@code timeout} waits as long as the system does. Failures
     * read as Go's, with Netty's or the JDK's exception as the cause:
     * <ul>
     *   <li>{@link ConnectException}: {@code dial tcp 127.0.0.1:9: connect: connection refused}
     *       (and the other failures of {@code connect}: "network is unreachable", "connection
     *       timed out"; "no route to host" is a {@link java.net.NoRouteToHostException});</li>
     *   <li>{@link DeadlineExceededException}: {@code dial tcp 127.0.0.1:9: i/o timeout};</li>
     *   <li>{@link java.net.SocketException}: {@code dial tcp 127.0.0.1:9: socket: too many open
     *       files}, for which {@link #isTemporary} is true.</li>
     * </ul>
     *
     * @throws ConnectException          when the peer refuses ("connection refused")
     * @throws DeadlineExceededException when {@code timeout} passes first
     */
    public static Conn dial(SocketAddress address, Duration timeout) throws IOException {
        return dial(address, timeout, null);
    }

    /**
     * Dials {@code address} for a connection that will mostly exchange bytes with {@code near}
     * (a proxy's upstream for its client): with the per-P pollers the new connection is served
     * by the same event loop as {@code near}, so one turn of that loop reads the one and writes
     * the other, as a Netty relay opens its upstream on the client channel's loop. Without
     * per-P pollers, or with {@code near} null or of another runtime, it is
     * {@link #dial(SocketAddress, Duration)}.
     *
     * @throws ConnectException          when the peer refuses ("connection refused")
     * @throws DeadlineExceededException when {@code timeout} passes first
     */
    public static Conn dial(SocketAddress address, Duration timeout, Conn near) throws IOException {
        Poller p = Poller.current();
        AtomicReference<Conn> made = new AtomicReference<>();
        int timeoutMillis = timeout == null ? 0 : (int) Math.max(1, Math.min(Integer.MAX_VALUE, timeout.toMillis()));
        Bootstrap b = new Bootstrap()
                .group(near != null && near.poller == p ? near.ch.eventLoop() : p.dialLoop())
                .channel(p.transport.socket)
                .option(ChannelOption.AUTO_READ, false)
                .option(ChannelOption.ALLOW_HALF_CLOSURE, true)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, timeoutMillis)
                .option(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(LOW_WATER, HIGH_WATER))
                .option(ChannelOption.RCVBUF_ALLOCATOR, recvAllocator())
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        Conn c = new Conn(p, ch);
                        ch.pipeline().addLast(c.handler);
                        p.channelOpened(ch);
                        made.set(c);
                    }
                });
        ChannelFuture f = b.connect(address);
        await(p, f, "IO wait (dial)");
        if (!f.isSuccess()) {
            Conn c = made.get();
            if (c != null) {
                c.close();
            }
            throw NetErrors.dial(address, f.cause());
        }
        Conn c = made.get();
        p.conns.add(c);
        return c;
    }

    /**
     * Go's {@code net.Error.Temporary()}: true when the operation may succeed if retried after
     * a pause, the caller's connection or listener still usable: descriptors exhausted (EMFILE,
     * "too many open files"; ENFILE, "too many open files in system") on accept or dial, a
     * connection reset or aborted in the backlog (accept), and timeouts
     * ({@link DeadlineExceededException}). False for everything else, and for
     * {@link NetClosedException} (Go's {@code net.ErrClosed}: the caller closed it; stop).
     */
    public static boolean isTemporary(IOException e) {
        return NetErrors.isTemporary(e);
    }

    /** Parks the caller until {@code f} completes (its listener runs on the loop, or here if already done). */
    static void await(Poller p, ChannelFuture f, String reason) {
        if (f.isDone()) {
            return;
        }
        Waiter w = Waiter.current();
        f.addListener(x -> w.wake()); // exactly one wake for this park
        p.park(w, reason, false, 0);
    }

    private static RecvByteBufAllocator recvAllocator() {
        return new AdaptiveRecvByteBufAllocator(512, 16 * 1024, 64 * 1024).maxMessagesPerRead(MAX_READS_PER_REQUEST);
    }

    /** Parses Go's {@code "host:port"}: an empty host is the wildcard address. */
    static InetSocketAddress parse(String address) {
        int colon = address.lastIndexOf(':');
        if (colon < 0) {
            throw new IllegalArgumentException("address " + address + ": missing port in address");
        }
        String host = address.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(address.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("address " + address + ": invalid port", e);
        }
        return host.isEmpty() ? new InetSocketAddress(port) : new InetSocketAddress(host, port);
    }
}
