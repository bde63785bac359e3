package io.gmp4j.bench.net;

import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.util.ReferenceCountUtil;

import java.io.IOException;
import java.net.InetSocketAddress;

/**
 * The Netty relay proxy, written the way Netty's own {@code HexDumpProxy} example writes one:
 * one event loop group of {@code procs} threads (epoll when available) accepts clients, and
 * each client's upstream connection is opened on the client's own event loop. Both channels
 * run with autoRead off: a channel reads its next burst only once the previous one has been
 * written to the other side ({@code writeAndFlush} listener), so a slow reader on either side
 * stops the other side's reads and memory per connection stays bounded. When either side
 * closes, the other is closed after its pending writes are flushed.
 */
final class NettyProxyServer implements BenchServer {
    private final NettyServer server;

    private NettyProxyServer(NettyServer server) {
        this.server = server;
    }

    static NettyProxyServer start(int procs, InetSocketAddress upstream) throws IOException {
        NettyTransport t = NettyTransport.best();
        return new NettyProxyServer(NettyServer.bind(procs, "netty-proxy", new ChannelInitializer<>() {
            @Override
            protected void initChannel(Channel client) {
                client.pipeline().addLast(new ClientSide(t, upstream));
            }
        }, b -> b.childOption(ChannelOption.AUTO_READ, false)));
    }

    /** A client connection: dials the upstream, then relays what the client sends to it. */
    private static final class ClientSide extends ChannelInboundHandlerAdapter {
        private final NettyTransport transport;
        private final InetSocketAddress upstream;
        private Channel upstreamChannel;

        ClientSide(NettyTransport transport, InetSocketAddress upstream) {
            this.transport = transport;
            this.upstream = upstream;
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            Channel client = ctx.channel();
            ChannelFuture connected = new Bootstrap()
                    .group(client.eventLoop())
                    .channel(transport.socket())
                    .option(ChannelOption.TCP_NODELAY, true)
                    .option(ChannelOption.AUTO_READ, false)
                    .handler(new UpstreamSide(client))
                    .connect(upstream);
            upstreamChannel = connected.channel();
            connected.addListener((ChannelFutureListener) f -> {
                if (f.isSuccess()) {
                    client.read(); // the first client bytes may now go somewhere
                } else {
                    client.close();
                }
            });
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (!upstreamChannel.isActive()) {
                ReferenceCountUtil.release(msg);
                return;
            }
            upstreamChannel.writeAndFlush(msg).addListener((ChannelFutureListener) f -> {
                if (f.isSuccess()) {
                    ctx.channel().read(); // written: read the next burst
                } else {
                    f.channel().close();
                }
            });
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (upstreamChannel != null) {
                closeOnFlush(upstreamChannel);
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            closeOnFlush(ctx.channel());
        }
    }

    /** The upstream connection of one client: relays what the upstream sends back to the client. */
    private static final class UpstreamSide extends ChannelInboundHandlerAdapter {
        private final Channel client;

        UpstreamSide(Channel client) {
            this.client = client;
        }

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            ctx.read();
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            client.writeAndFlush(msg).addListener((ChannelFutureListener) f -> {
                if (f.isSuccess()) {
                    ctx.channel().read();
                } else {
                    f.channel().close();
                }
            });
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            closeOnFlush(client);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            closeOnFlush(ctx.channel());
        }
    }

    /** Closes {@code ch} once what was written to it has been flushed. */
    private static void closeOnFlush(Channel ch) {
        if (ch.isActive()) {
            ch.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
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
