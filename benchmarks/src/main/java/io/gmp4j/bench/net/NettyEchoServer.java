package io.gmp4j.bench.net;

import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * The plain Netty echo server: one event loop group of {@code procs} threads (epoll when
 * available) that accepts and serves; each read buffer is written back as it is and flushed
 * when the read burst ends. While a peer does not read, the connection stops reading too
 * (autoRead follows writability), so memory per connection stays bounded.
 */
final class NettyEchoServer implements BenchServer {
    private static final Echo ECHO = new Echo();
    private final NettyServer server;

    private NettyEchoServer(NettyServer server) {
        this.server = server;
    }

    static NettyEchoServer start(int procs) throws IOException {
        return new NettyEchoServer(NettyServer.bind(procs, "netty-echo", ECHO, b -> b));
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
        return server.address();
    }

    @Override
    public void close() {
        server.close();
    }
}
