package io.gmp4j.bench.net;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;

/**
 * What every Netty benchmark server shares: one event loop group of {@code procs} threads on
 * the best transport, a listening channel on a free loopback port (backlog 1024, TCP_NODELAY on
 * accepted connections), and the shutdown. The servers differ only in their child handler and
 * extra options.
 */
final class NettyServer {
    final NettyTransport transport;
    private final EventLoopGroup group;
    private final Channel channel;

    private NettyServer(NettyTransport transport, EventLoopGroup group, Channel channel) {
        this.transport = transport;
        this.group = group;
        this.channel = channel;
    }

    /**
     * Binds a server named {@code name} (its threads' prefix, and the error messages) whose
     * accepted connections get {@code childHandler}; {@code options} may add bootstrap options.
     */
    static NettyServer bind(int procs, String name, ChannelHandler childHandler,
                            UnaryOperator<ServerBootstrap> options) throws IOException {
        NettyTransport t = NettyTransport.best();
        EventLoopGroup group = t.group(procs, name);
        try {
            ServerBootstrap b = new ServerBootstrap()
                    .group(group)
                    .channel(t.serverSocket())
                    .option(ChannelOption.SO_BACKLOG, 1024)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childHandler(childHandler);
            Channel ch = options.apply(b).bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
            return new NettyServer(t, group, ch);
        } catch (InterruptedException e) {
            group.shutdownGracefully();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while binding the " + name + " server", e);
        } catch (RuntimeException e) {
            group.shutdownGracefully();
            throw new IOException("cannot bind the " + name + " server: " + e.getMessage(), e);
        }
    }

    InetSocketAddress address() {
        return (InetSocketAddress) channel.localAddress();
    }

    /** Closes the listening channel, then the event loops (and with them every connection). */
    void close() {
        channel.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(10, TimeUnit.SECONDS);
    }
}
