package io.gmp4j.bench.net;

import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoopGroup;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Each server with the load client for a fraction of a second, in one JVM: the client's
 * accounting must come out exact (every request answered with its own bytes, every byte
 * streamed back with the same checksum, every chat line delivered once to every client), and
 * a server that corrupts or drops data must fail the run. Timings are not checked.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NetLoadTest {
    /** One warm-up window and two measured ones of 150 ms, with this JVM's CPU time as the "server's". */
    private static final WindowPlan SHORT = new WindowPlan(1, 2, 150, ProcessHandle.current().pid());

    static List<String> echoImpls() {
        return BenchServer.ECHO_IMPLS;
    }

    static List<String> chatImpls() {
        return BenchServer.CHAT_IMPLS;
    }

    @ParameterizedTest
    @MethodSource("echoImpls")
    void echoAnswersEveryRequestWithItsOwnBytes(String impl) throws Exception {
        try (BenchServer s = BenchServer.start("echo", impl, 2)) {
            EchoLoad.Outcome o = new EchoLoad(s.address(), 16, 2).run(SHORT, "echo-c16");
            assertTrue(o.requests() > 0, "no request was made");
            assertEquals(o.requests(), o.answers());
            assertFigures(o.figures(), "echo-c16", "echo-c16-p99", "echo-c16-cpu");
        }
    }

    @ParameterizedTest
    @MethodSource("echoImpls")
    void bulkGetsEveryByteBackWithTheSameChecksum(String impl) throws Exception {
        try (BenchServer s = BenchServer.start("echo", impl, 2)) {
            BulkLoad.Outcome o = new BulkLoad(s.address(), 4, 2).run(SHORT, "bulk");
            assertTrue(o.bytesVerified() > 4L * BulkConnection.CHUNK, "too few bytes: " + o.bytesVerified());
            assertFigures(o.figures(), "bulk", "bulk-cpu");
        }
    }

    @ParameterizedTest
    @MethodSource("chatImpls")
    void chatDeliversEveryLineOnceToEveryClient(String impl) throws Exception {
        try (BenchServer s = BenchServer.start("chat", impl, 2)) {
            int clients = 40;
            ChatLoad.Outcome o = new ChatLoad(s.address(), clients, 4, 8, 2).run(SHORT);
            assertTrue(o.linesSent() > 0, "no line was sent");
            assertEquals(o.linesSent() * clients, o.deliveries());
            assertFigures(o.figures(), "chat-fanout", "chat-p99", "chat-p99-slowest", "chat-p99-median",
                    "chat-fanout-cpu");
        }
    }

    /**
     * Every echo server at once, loaded in turns: each gets its own figures from its own turns,
     * and every request to every server is answered with its own bytes (the run throws if not).
     */
    @Test
    void serversTakingTurnsEachGetTheirOwnFigures() throws Exception {
        List<String> impls = BenchServer.ECHO_IMPLS;
        List<BenchServer> servers = new java.util.ArrayList<>();
        try {
            for (String impl : impls) {
                servers.add(BenchServer.start("echo", impl, 2));
            }
            long pid = ProcessHandle.current().pid();
            List<List<Figure>> figures = new InterleavedEcho(servers.stream().map(BenchServer::address).toList(),
                    impls.stream().map(i -> pid).toList(), 16, 2).run(1, 2, 150, "echo-turns-c16");
            assertEquals(impls.size(), figures.size());
            for (List<Figure> f : figures) {
                assertFigures(f, "echo-turns-c16", "echo-turns-c16-p99", "echo-turns-c16-cpu");
            }
        } finally {
            for (BenchServer s : servers) {
                s.close();
            }
        }
    }

    @Test
    void aServerThatCorruptsAByteFailsTheRunInTurns() throws Exception {
        try (BadEcho bad = new BadEcho(new FlipByte(1000)); BenchServer good = BenchServer.start("echo", "netty", 1)) {
            LoadFailure f = assertThrows(LoadFailure.class, () -> new InterleavedEcho(
                    List.of(good.address(), bad.address()), List.of(0L, 0L), 4, 1).run(1, 2, 150, "echo-turns-c4"));
            assertTrue(f.getMessage().contains("byte"), f.getMessage());
        }
    }

    @Test
    void aServerThatCorruptsAByteFailsTheEchoRun() throws Exception {
        try (BadEcho bad = new BadEcho(new FlipByte(1000))) {
            LoadFailure f = assertThrows(LoadFailure.class,
                    () -> new EchoLoad(bad.address(), 4, 1).run(SHORT, "echo-c4"));
            assertTrue(f.getMessage().contains("byte"), f.getMessage());
        }
    }

    @Test
    void aServerThatCorruptsAByteFailsTheBulkChecksum() throws Exception {
        try (BadEcho bad = new BadEcho(new FlipByte(100_000))) {
            LoadFailure f = assertThrows(LoadFailure.class, () -> new BulkLoad(bad.address(), 1, 1).run(SHORT, "bulk"));
            assertTrue(f.getMessage().contains("CRC-32C"), f.getMessage());
        }
    }

    @Test
    void aServerThatAnswersTwiceFailsTheEchoRun() throws Exception {
        try (BadEcho bad = new BadEcho(new EchoTwice())) {
            LoadFailure f = assertThrows(LoadFailure.class, () -> new EchoLoad(bad.address(), 1, 1).run(SHORT, "echo-c1"));
            // the extra copy arrives while no request is in flight, or against the next request's bytes
            assertTrue(f.getMessage().startsWith("echo connection 0: "), f.getMessage());
        }
    }

    @Test
    void procStatParsingCountsUserAndSystemTicks() {
        String line = "1234 (a (weird) name) S 1 2 3 4 5 6 7 8 9 10 700 80 0 0 20 0 1";
        assertEquals(780, ProcessCpu.parseTicks(line));
        assertTrue(ProcessCpu.of(ProcessHandle.current().pid()).nanos() > 0);
        assertThrows(IllegalArgumentException.class, () -> ProcessCpu.parseTicks("no parenthesis"));
    }

    private static void assertFigures(List<Figure> figures, String... names) {
        assertEquals(List.of(names), figures.stream().map(Figure::bench).toList());
        for (Figure f : figures) {
            assertEquals(2, f.samples().size(), f.bench());
            for (double v : f.samples()) {
                assertTrue(v > 0 && Double.isFinite(v), f.bench() + " sample " + v);
            }
        }
    }

    /** A Netty echo server with a faulty handler. */
    private static final class BadEcho implements AutoCloseable {
        private final EventLoopGroup group;
        private final Channel server;

        BadEcho(ChannelHandler handler) throws InterruptedException {
            NettyTransport t = NettyTransport.best();
            group = t.group(1, "bad-echo");
            server = new ServerBootstrap().group(group).channel(t.serverSocket()).childHandler(handler)
                    .bind(new InetSocketAddress("127.0.0.1", 0)).sync().channel();
        }

        InetSocketAddress address() {
            return (InetSocketAddress) server.localAddress();
        }

        @Override
        public void close() {
            server.close().syncUninterruptibly();
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
        }
    }

    /** Echoes, but flips byte number {@code at} of each connection's stream. */
    @ChannelHandler.Sharable
    private static final class FlipByte extends ChannelInboundHandlerAdapter {
        private final long at;

        FlipByte(long at) {
            this.at = at;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf b = (ByteBuf) msg;
            Long seen = ctx.channel().attr(SEEN).get();
            long before = seen == null ? 0 : seen;
            if (before <= at && at < before + b.readableBytes()) {
                int i = b.readerIndex() + (int) (at - before);
                b.setByte(i, b.getByte(i) ^ 0x5a);
            }
            ctx.channel().attr(SEEN).set(before + b.readableBytes());
            ctx.writeAndFlush(msg);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close(); // the client hung up on us
        }
    }

    private static final io.netty.util.AttributeKey<Long> SEEN = io.netty.util.AttributeKey.valueOf("seen");

    /** Echoes every read twice. */
    @ChannelHandler.Sharable
    private static final class EchoTwice extends ChannelInboundHandlerAdapter {
        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf b = (ByteBuf) msg;
            ctx.write(b.retainedDuplicate());
            ctx.writeAndFlush(b);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            ctx.close(); // the client hung up on us
        }
    }
}
