package io.gmp4j.bench.net;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * The plain Netty echo server: one event loop group of {@code procs} threads (epoll when
 * available) that accepts and serves; each read buffer is written back as it is and flushed
 * when the read burst ends. While a peer does not read, the connection stops reading too
 * (autoRead follows writability), so memory per connection stays bounded.
 */
final class NettyEchoServer implements BenchServer {
    private final EventLoopGroup group;
    private final Channel server;

    private NettyEchoServer(EventLoopGroup group, Channel server) {
        this.group = group;
        this.server = server;
    }

    static NettyEchoServer start(int procs) throws IOException {
        NettyTransport t = NettyTransport.best();
        EventLoopGroup group = t.group(procs, "netty-echo");
        try {
            Channel ch = new ServerBootstrap()
                    .group(group)
                    .channel(t.serverSocket())
                    .option(ChannelOption.SO_BACKLOG, 1024)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childHandler(new Echo())
                    .bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
            return new NettyEchoServer(group, ch);
        } catch (InterruptedException e) {
            group.shutdownGracefully();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while binding", e);
        } catch (RuntimeException e) {
            group.shutdownGracefully();
            throw new IOException("cannot bind the Netty echo server: " + e.getMessage(), e);
        }
    }

    /** Echoes each connection's bytes back. */
    @ChannelHandler.Sharable
    private static final class Echo extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ctx.write(msg, ctx.voidPromise());
            if (!ctx.channel().isWritable()) {
                ctx.channel().config().setAutoRead(false);
            }
        }

        @Override
        public void channelReadComplete(ChannelHandlerContext ctx) {
            ctx.flush();
        }

        @Override
        public void channelWritabilityChanged(ChannelHandlerContext ctx) {
            if (ctx.channel().isWritable()) {
                ctx.channel().config().setAutoRead(true);
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close();
        }
    }

    @Override
    public InetSocketAddress address() {
        return (InetSocketAddress) server.localAddress();
    }

    @Override
    public void close() {
        server.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        group.shutdownGracefully(0, 2, TimeUnit.SECONDS).awaitUninterruptibly(10, TimeUnit.SECONDS);
    }
}
