package io.gmp4j.bench.net;

import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.ServerChannel;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The Netty transport the load client and the Netty servers use: epoll when the native
 * library loads, NIO otherwise (the same choice gmp4j's netpoll makes).
 *
 * @param name         "epoll" or "nio", for the reports
 * @param handler      the I/O handler factory for event loops
 * @param socket       the client socket channel class
 * @param serverSocket the server socket channel class
 */
public record NettyTransport(String name, IoHandlerFactory handler, Class<? extends SocketChannel> socket,
                             Class<? extends ServerChannel> serverSocket) {

    /** Epoll when available, else NIO. */
    public static NettyTransport best() {
        if (Epoll.isAvailable()) {
            return new NettyTransport("epoll", EpollIoHandler.newFactory(), EpollSocketChannel.class,
                    EpollServerSocketChannel.class);
        }
        return new NettyTransport("nio", NioIoHandler.newFactory(), NioSocketChannel.class,
                NioServerSocketChannel.class);
    }

    /** An event loop group of {@code threads} daemon threads named {@code prefix-N}. */
    public EventLoopGroup group(int threads, String prefix) {
        if (threads < 1) {
            throw new IllegalArgumentException("event loop threads must be >= 1, got " + threads);
        }
        AtomicInteger n = new AtomicInteger();
        ThreadFactory tf = r -> {
            Thread t = new Thread(r, prefix + "-" + n.incrementAndGet());
            t.setDaemon(true);
            return t;
        };
        return new MultiThreadIoEventLoopGroup(threads, tf, handler);
    }
}
