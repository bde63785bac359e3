package io.gmp4j.bench.net;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.handler.codec.LineBasedFrameDecoder;
import io.netty.util.concurrent.GlobalEventExecutor;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * A plain Netty chat server, written the usual way: the logged-in channels in a
 * {@link ChannelGroup}, and each line broadcast with one {@code group.writeAndFlush} (a write
 * and a flush per line per member). It speaks the part of the chat example's protocol that
 * the benchmark uses: the greeting and {@code *** choose a nickname:}, a unique nickname,
 * {@code *** hello <nick>; ...} and {@code *** <nick> joined lobby} to the room, then every
 * line to everyone as {@code [lobby] <nick>: <text>}. Event loops: {@code procs} threads.
 */
final class NettyChatServer implements BenchServer {
    static final String ROOM = "lobby";
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9_.-]{1,20}");
    private static final int MAX_LINE = 1024;

    private final NettyServer server;
    private final ChannelGroup room = new DefaultChannelGroup("lobby", GlobalEventExecutor.INSTANCE);
    private final Set<String> nicks = ConcurrentHashMap.newKeySet();

    private NettyChatServer(int procs) throws IOException {
        this.server = NettyServer.bind(procs, "netty-chat", new ChannelInitializer<Channel>() {
            @Override
            protected void initChannel(Channel ch) {
                ch.pipeline().addLast(new LineBasedFrameDecoder(MAX_LINE, true, false), new Member());
            }
        }, b -> b);
    }

    static NettyChatServer start(int procs) throws IOException {
        return new NettyChatServer(procs);
    }

    private static ByteBuf line(Channel ch, String text) {
        byte[] b = (text + "\n").getBytes(StandardCharsets.UTF_8);
        return ch.alloc().buffer(b.length).writeBytes(b);
    }

    /** One connection: nickname first, then chat lines. */
    private final class Member extends ChannelInboundHandlerAdapter {
        private String nick;

        @Override
        public void channelActive(ChannelHandlerContext ctx) {
            ctx.writeAndFlush(line(ctx.channel(), "*** welcome to the Netty chat\n*** choose a nickname:"));
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            String text;
            ByteBuf frame = (ByteBuf) msg;
            try {
                text = frame.toString(StandardCharsets.UTF_8);
            } finally {
                frame.release();
            }
            if (nick == null) {
                login(ctx, text.strip());
            } else if (!text.isBlank()) {
                room.writeAndFlush(line(ctx.channel(), "[" + ROOM + "] " + nick + ": " + text));
            }
        }

        private void login(ChannelHandlerContext ctx, String name) {
            if (!NAME.matcher(name).matches()) {
                ctx.writeAndFlush(line(ctx.channel(), "*** a nickname is 1 to 20 letters, digits, '_', '-' or '.';"
                        + " choose a nickname:"));
            } else if (!nicks.add(name.toLowerCase(java.util.Locale.ROOT))) {
                ctx.writeAndFlush(line(ctx.channel(), "*** nickname " + name + " is taken, choose another:"));
            } else {
                nick = name;
                ctx.writeAndFlush(line(ctx.channel(), "*** hello " + nick + "; you are in " + ROOM));
                room.add(ctx.channel());
                room.writeAndFlush(line(ctx.channel(), "*** " + nick + " joined " + ROOM));
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (nick != null) {
                nicks.remove(nick.toLowerCase(java.util.Locale.ROOT));
                room.writeAndFlush(line(ctx.channel(), "*** " + nick + " left"));
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
        room.close().awaitUninterruptibly(5, TimeUnit.SECONDS);
        server.close();
    }
}
