package io.gmp4j.net;

import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelPromise;
import io.netty.channel.IoEventLoop;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.IoEventLoopGroup;
import io.netty.util.concurrent.AbstractEventExecutorGroup;
import io.netty.util.concurrent.DefaultPromise;
import io.netty.util.concurrent.EventExecutor;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.GlobalEventExecutor;
import io.netty.util.concurrent.Promise;

import java.util.Arrays;
import java.util.Iterator;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The per-P loops as one Netty {@link EventLoopGroup}, so a {@code ServerBootstrap} spreads the
 * connections it accepts over them round-robin. The loops are filled in after construction
 * (each needs the group as its parent).
 */
final class LoopGroup extends AbstractEventExecutorGroup implements IoEventLoopGroup {
    private final ProcLoop[] loops;
    private final AtomicInteger next = new AtomicInteger();
    private final Promise<Void> terminated = new DefaultPromise<>(GlobalEventExecutor.INSTANCE);
    private final AtomicInteger running;

    LoopGroup(ProcLoop[] loops) {
        this.loops = loops;
        this.running = new AtomicInteger(loops.length);
    }

    @Override
    public IoEventLoop next() {
        return loops[(next.getAndIncrement() & Integer.MAX_VALUE) % loops.length].loop;
    }

    @Override
    public Iterator<EventExecutor> iterator() {
        return Arrays.stream(loops).map(l -> (EventExecutor) l.loop).iterator();
    }

    @Override
    public ChannelFuture register(Channel channel) {
        return next().register(channel);
    }

    @Override
    public ChannelFuture register(ChannelPromise promise) {
        return next().register(promise);
    }

    @Deprecated
    @Override
    public ChannelFuture register(Channel channel, ChannelPromise promise) {
        return next().register(channel, promise);
    }

    @Override
    public boolean isShuttingDown() {
        return Arrays.stream(loops).allMatch(l -> l.loop.isShuttingDown());
    }

    @Override
    public Future<?> shutdownGracefully(long quietPeriod, long timeout, TimeUnit unit) {
        for (ProcLoop l : loops) {
            l.loop.shutdownGracefully(quietPeriod, timeout, unit).addListener(f -> {
                if (running.decrementAndGet() == 0) {
                    terminated.trySuccess(null);
                }
            });
        }
        return terminated;
    }

    @Override
    public Future<?> terminationFuture() {
        return terminated;
    }

    @Deprecated
    @Override
    public void shutdown() {
        shutdownGracefully(0, 0, TimeUnit.MILLISECONDS);
    }

    @Override
    public boolean isShutdown() {
        return Arrays.stream(loops).allMatch(l -> l.loop.isShutdown());
    }

    @Override
    public boolean isTerminated() {
        return Arrays.stream(loops).allMatch(l -> l.loop.isTerminated());
    }

    @Override
    public boolean awaitTermination(long timeout, TimeUnit unit) throws InterruptedException {
        long deadline = System.nanoTime() + unit.toNanos(timeout);
        for (ProcLoop l : loops) {
            if (!l.loop.awaitTermination(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                return false;
            }
        }
        return true;
    }
}
