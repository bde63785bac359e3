package io.gmp4j.bench.net;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpObjectAggregator;
import io.netty.handler.codec.http.websocketx.TextWebSocketFrame;
import io.netty.handler.codec.http.websocketx.WebSocketClientProtocolConfig;
import io.netty.handler.codec.http.websocketx.WebSocketClientProtocolHandler;
import io.netty.handler.codec.http.websocketx.WebSocketFrame;

import java.net.InetSocketAddress;
import java.net.URI;

/**
 * A {@link ChatConnection} over a WebSocket, one text frame per line: an incoming text frame is
 * handed to the connection as one line ({@link ChatConnection#line}, in place, no copy), and a
 * line the connection writes (a buffer ending in {@code '\n'}) goes out as one text frame
 * without it. Behind Netty's HTTP codec and WebSocket client protocol handler
 * ({@link #pipeline}), which do the handshake, the masking, pings and the close.
 */
final class WsLines extends ChannelDuplexHandler {
    /** How long the WebSocket handshake may take (200 clients at once on two busy cores). */
    private static final long HANDSHAKE_TIMEOUT_MS = 60_000;

    private final ChatConnection conn;

    private WsLines(ChatConnection conn) {
        this.conn = conn;
    }

    /** The handlers of a chat client at {@code server}'s {@code path} over a WebSocket, last {@code conn}. */
    static ChannelHandler[] pipeline(InetSocketAddress server, String path, ChatConnection conn) {
        URI uri = URI.create("ws://" + server.getHostString() + ":" + server.getPort() + path);
        WebSocketClientProtocolConfig cfg = WebSocketClientProtocolConfig.newBuilder()
                .webSocketUri(uri)
                .maxFramePayloadLength(ChatConnection.MAX_LINE)
                .handshakeTimeoutMillis(HANDSHAKE_TIMEOUT_MS)
                .build();
        return new ChannelHandler[] {new HttpClientCodec(), new HttpObjectAggregator(8192),
                new WebSocketClientProtocolHandler(cfg), new WsLines(conn), conn};
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof TextWebSocketFrame f) {
            try {
                ByteBuf b = f.content();
                conn.line(b, b.readerIndex(), b.writerIndex());
            } finally {
                f.release();
            }
        } else if (msg instanceof WebSocketFrame f) {
            f.release();
            conn.exceptionCaught(ctx, new IllegalStateException("a WebSocket frame that is not text: " + f));
        } else {
            ctx.fireChannelRead(msg);
        }
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) {
        if (msg instanceof ByteBuf b && b.isReadable() && b.getByte(b.writerIndex() - 1) == '\n') {
            b.writerIndex(b.writerIndex() - 1);
            ctx.write(new TextWebSocketFrame(b), promise);
        } else {
            ctx.write(msg, promise);
        }
    }
}
