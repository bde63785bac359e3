package io.gmp4j.net;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.socket.ChannelInputShutdownEvent;

import java.io.IOException;
import java.util.Locale;

/**
 * One {@link Conn}'s handler in its channel's pipeline: Netty's events, each passed to the
 * side of the connection it concerns (input to {@link ConnReader}, writability to
 * {@link ConnWriter}, the end and failures to the {@link Conn}). Every method runs on the
 * channel's event loop; the handler holds no state of its own.
 */
final class ConnHandler extends ChannelInboundHandlerAdapter {
    private final Conn conn;
    private final ConnReader reader;
    private final ConnWriter writer;

    ConnHandler(Conn conn) {
        this.conn = conn;
        this.reader = conn.reader;
        this.writer = conn.writer;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        reader.received((ByteBuf) msg); // the reader now owns it
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
        if (evt instanceof ChannelInputShutdownEvent) {
            reader.inputEnded();
        }
        ctx.fireUserEventTriggered(evt);
    }

    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) {
        reader.readComplete();
        ctx.fireChannelReadComplete();
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) {
        writer.writabilityChanged();
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (!(cause instanceof IOException)) {
            // Not the socket's failure but a bug (ours or a handler's): the connection still
            // fails, but loudly, so the bug leaves a trace.
            System.err.println("gmp4j: unexpected failure on " + conn + ", closing it:");
            cause.printStackTrace();
        }
        String m = cause.getMessage();
        conn.fail(Conn.translate((m != null && m.toLowerCase(Locale.ROOT).contains("pipe") ? "write " : "read ")
                + conn, cause));
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        conn.channelInactive();
    }
}
