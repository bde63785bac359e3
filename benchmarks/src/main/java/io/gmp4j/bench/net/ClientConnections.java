package io.gmp4j.bench.net;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.WriteBufferWaterMark;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The load client's connections: a Netty event loop group of {@code loops} threads (epoll when
 * available) and the channels it connected, each with its own handler. Closing closes the
 * channels and stops the loops.
 */
final class ClientConnections implements AutoCloseable {
    /** How long connecting may take, per batch of connections. */
    private static final long CONNECT_TIMEOUT_S = 30;

    private final NettyTransport transport = NettyTransport.best();
    private final EventLoopGroup group;
    private final List<Channel> channels = new ArrayList<>();

    ClientConnections(int loops) {
        this.group = transport.group(loops, "load-client");
    }

    /** The transport's name ("epoll" or "nio"). */
    String transport() {
        return transport.name();
    }

    /**
     * Opens {@code n} connections to {@code address}; connection {@code i} gets
     * {@code handlers.get(i)} as its only handler. Returns once all are connected.
     *
     * @param highWater the outbound bytes above which a channel reports itself unwritable
     */
    List<Channel> connect(InetSocketAddress address, List<? extends ChannelHandler> handlers, int highWater) {
        List<ChannelFuture> futures = new ArrayList<>();
        for (ChannelHandler h : handlers) {
            Bootstrap b = new Bootstrap()
                    .group(group)
                    .channel(transport.socket())
                    .option(ChannelOption.TCP_NODELAY, true)
                    .option(ChannelOption.WRITE_BUFFER_WATER_MARK, new WriteBufferWaterMark(highWater / 2, highWater))
                    .handler(h);
            futures.add(b.connect(address));
        }
        List<Channel> out = new ArrayList<>();
        for (ChannelFuture f : futures) {
            if (!f.awaitUninterruptibly(CONNECT_TIMEOUT_S, TimeUnit.SECONDS)) {
                throw new LoadFailure("connecting " + handlers.size() + " clients to " + address + ": not done after "
                        + CONNECT_TIMEOUT_S + " s");
            }
            if (!f.isSuccess()) {
                throw new LoadFailure("cannot connect to " + address + ": " + f.cause());
            }
            out.add(f.channel());
        }
        channels.addAll(out);
        return out;
    }

    @Override
    public void close() {
        for (Channel c : channels) {
            c.close();
        }
        for (Channel c : channels) {
            c.closeFuture().awaitUninterruptibly(5, TimeUnit.SECONDS);
        }
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(10, TimeUnit.SECONDS);
    }
}
