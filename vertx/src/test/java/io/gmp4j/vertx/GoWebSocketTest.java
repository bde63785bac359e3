package io.gmp4j.vertx;

import io.gmp4j.GoRuntime;
import io.gmp4j.NoUncaughtExceptions;
import io.gmp4j.TestSupport;
import io.gmp4j.chan.Chan;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.WebSocket;
import io.vertx.core.http.WebSocketClient;
import io.vertx.core.http.WebSocketClientOptions;
import io.vertx.core.http.WebSocketConnectOptions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import static org.junit.jupiter.api.Assertions.*;

/**
 * GoWebSocket on a real Vert.x server and client over loopback: an echo in order, the ends, and
 * backpressure in both directions with a peer that stops reading (the goroutine parks, what is
 * queued stays bounded, and every message arrives once reading resumes).
 */
@ExtendWith(NoUncaughtExceptions.class)
class GoWebSocketTest {
    /** Payload of a backpressure message; the stream is many times what the socket buffers hold. */
    private static final int MSG = 16 << 10;
    private static final int SOCKET_BUFFER = 64 << 10;
    /** Messages per batch of the batch-backpressure test. */
    private static final int BATCH = 8;

    private Vertx vertx;
    private GoRuntime rt;
    private HttpServer server;
    private WebSocketClient client;

    @BeforeEach
    void start() {
        vertx = Vertx.vertx();
        rt = GoRuntime.builder().maxProcs(2).name("vertx-ws").build();
        client = vertx.createWebSocketClient(new WebSocketClientOptions().setReceiveBufferSize(SOCKET_BUFFER)
                .setSendBufferSize(SOCKET_BUFFER));
    }

    @AfterEach
    void stop() {
        VertxTestSupport.close(vertx);
        rt.close();
    }

    private int listen(Consumer<GoWebSocket> body, int inbox) {
        server = vertx.createHttpServer(new HttpServerOptions().setSendBufferSize(SOCKET_BUFFER)
                        .setReceiveBufferSize(SOCKET_BUFFER))
                .webSocketHandler(GoWebSocket.handler(rt, inbox, body));
        return VertxTestSupport.join(server.listen(0, "127.0.0.1")).actualPort();
    }

    private WebSocketConnectOptions to(int port) {
        return new WebSocketConnectOptions().setHost("127.0.0.1").setPort(port).setURI("/ws");
    }

    @Test
    void echoKeepsEveryMessageInOrderAndBothSidesSeeTheEnd() {
        int n = TestSupport.stress(5_000, 1_000);
        AtomicInteger serverRead = new AtomicInteger();
        CountDownLatch serverDone = new CountDownLatch(1);
        AtomicReference<Object> serverEnd = new AtomicReference<>();
        int port = listen(ws -> {
            try {
                for (String m; (m = ws.readText()) != null; ) {
                    serverRead.incrementAndGet();
                    ws.writeText("echo " + m);
                }
                serverEnd.set(ws.closeStatusCode());
                // the peer closed: a write now fails clearly
                try {
                    ws.writeText("late");
                    serverEnd.set("late write went through");
                } catch (WebSocketClosedException e) {
                    assertEquals(Short.valueOf((short) 1000), e.statusCode());
                }
            } finally {
                serverDone.countDown();
            }
        }, 8);
        TestSupport.runInGoroutine(rt, () -> {
            GoWebSocket ws = GoWebSocket.connect(client, to(port));
            // a writer goroutine and this reader share the socket
            Chan<Boolean> written = new Chan<>(1);
            rt.go(() -> {
                for (int i = 0; i < n; i++) {
                    ws.writeText("m" + i);
                }
                written.send(true);
            });
            for (int i = 0; i < n; i++) {
                assertEquals("echo m" + i, ws.readText());
            }
            assertTrue(written.recv());
            ws.close();
            assertTrue(ws.isClosed());
            assertNull(ws.readText(), "a read after the close is the end of the stream");
            ws.close(); // closing twice does nothing
            WebSocketClosedException e = assertThrows(WebSocketClosedException.class, () -> ws.writeText("x"));
            assertTrue(e.getMessage().contains("closed by this side"), e.getMessage());
        });
        TestSupport.await(serverDone, () -> "server goroutine did not end: " + rt.dump());
        assertEquals(n, serverRead.get());
        assertEquals(Short.valueOf((short) 1000), serverEnd.get());
    }

    @Test
    void serverBodyReturningClosesTheSocketAndAThrowingBodyClosesWith1011() {
        AtomicInteger calls = new AtomicInteger();
        List<Throwable> reported = java.util.Collections.synchronizedList(new ArrayList<>());
        vertx.exceptionHandler(reported::add);
        int port = listen(ws -> {
            if (calls.incrementAndGet() == 1) {
                ws.writeText("bye");
                return;
            }
            throw new IllegalStateException("handler bug");
        }, 4);
        TestSupport.runInGoroutine(rt, () -> {
            GoWebSocket first = GoWebSocket.connect(client, to(port));
            assertEquals("bye", first.readText());
            assertNull(first.readText());
            assertEquals(Short.valueOf((short) 1000), first.closeStatusCode());
            GoWebSocket second = GoWebSocket.connect(client, to(port));
            assertNull(second.readText());
            assertEquals(Short.valueOf((short) 1011), second.closeStatusCode());
        });
        assertEquals(1, reported.size(), () -> "reported: " + reported);
        assertEquals("handler bug", reported.get(0).getMessage());
    }

    /**
     * The server goroutine writes a stream many times what the sockets buffer to a client that
     * paused at once: the goroutine parks in the drain wait, and what it handed to Vert.x but the
     * client has not read stays under a bound; after the client resumes, every message arrives
     * once, in order.
     */
    @Test
    void writerParksWhileThePeerDoesNotReadAndEverythingArrivesAfterResume() {
        writerParksWhileThePeerDoesNotRead(1);
    }

    /**
     * The same with batches of {@value #BATCH} text messages ({@link GoWebSocket#writeTexts}):
     * the writer waits for the drain once per batch, so what it runs ahead may grow by one batch.
     */
    @Test
    void batchWriterParksWhileThePeerDoesNotReadAndStaysBounded() {
        writerParksWhileThePeerDoesNotRead(BATCH);
    }

    /**
     * The server writes {@code total} messages of {@value #MSG} bytes to a client that reads
     * nothing until the server's goroutine parks for a drain: one {@code writeBinary} at a time
     * ({@code batch} 1) or {@code writeTexts} of {@code batch} text messages.
     */
    private void writerParksWhileThePeerDoesNotRead(int batch) {
        int total = TestSupport.stress(2048, 1024) / batch * batch; // 32 MiB, 16 MiB
        AtomicInteger sent = new AtomicInteger();
        AtomicInteger received = new AtomicInteger();
        AtomicLong maxAhead = new AtomicLong();
        AtomicReference<Thread> writer = new AtomicReference<>();
        AtomicReference<GoWebSocket> serverWs = new AtomicReference<>();
        CountDownLatch serverDone = new CountDownLatch(1);
        CountDownLatch allWritten = new CountDownLatch(1);
        String pad = "x".repeat(MSG - 11); // a text message: its index in 10 digits, ':', the pad
        int port = listen(ws -> {
            writer.set(Thread.currentThread());
            serverWs.set(ws);
            try {
                List<String> texts = new ArrayList<>(batch);
                while (sent.get() < total) {
                    maxAhead.accumulateAndGet(sent.get() - received.get(), Math::max);
                    if (batch == 1) {
                        ws.writeBinary(message(sent.get()));
                    } else {
                        texts.clear();
                        for (int k = 0; k < batch; k++) {
                            texts.add(String.format("%010d:", sent.get() + k) + pad);
                        }
                        ws.writeTexts(texts);
                    }
                    sent.addAndGet(batch);
                }
                allWritten.countDown(); // the last drain woke it: no close came to its rescue
                assertNull(ws.read()); // the client closes when it has all
            } finally {
                serverDone.countDown();
            }
        }, 4);
        AtomicInteger outOfOrder = new AtomicInteger();
        CountDownLatch all = new CountDownLatch(1);
        WebSocket cws = VertxTestSupport.join(client.connect(to(port)).map(ws -> {
            ws.pause(); // reads nothing until resumed
            ws.binaryMessageHandler(b -> {
                int i = received.getAndIncrement();
                tally(i == total - 1, b.length() == MSG && b.getInt(0) == i && b.getInt(MSG - 4) == i, outOfOrder, all);
            });
            ws.textMessageHandler(t -> {
                int i = received.getAndIncrement();
                tally(i == total - 1, t.length() == MSG && Integer.parseInt(t, 0, 10, 10) == i, outOfOrder, all);
            });
            return ws;
        }));
        TestSupport.awaitCondition(() -> VertxTestSupport.parkedIn(writer.get(), WriteGate.class, "awaitWritable"),
                () -> "the server goroutine never parked for a drain; sent " + sent.get() + ": " + rt.dump());
        int sentWhileParked = sent.get();
        assertEquals(0, received.get(), "the client is paused");
        assertTrue(sentWhileParked < total / 4, "the writer ran " + sentWhileParked + " of " + total
                + " messages ahead of a client that reads nothing");
        assertTrue(serverWs.get().gate().waits() >= 1);
        VertxTestSupport.join(vertx.getOrCreateContext().<Void>executeBlocking(() -> null)); // a loop turn goes by
        cws.resume();
        TestSupport.await(all, () -> "received " + received.get() + " of " + total);
        TestSupport.await(allWritten, () -> "the writer was not woken after the client read everything: " + rt.dump());
        VertxTestSupport.join(cws.close());
        TestSupport.await(serverDone, () -> "server goroutine did not end: " + rt.dump());
        assertEquals(total, sent.get());
        assertEquals(total, received.get());
        assertEquals(0, outOfOrder.get());
        // socket buffers (64 KiB asked, doubled by Linux, each side) and Vert.x's queues are far
        // below 8 MiB; a batch is handed over whole before the writer looks at the queue
        long bound = (8L << 20) + (long) (batch - 1) * MSG;
        assertTrue((maxAhead.get() + batch - 1) * MSG <= bound, "at most " + maxAhead.get() + " messages and a batch"
                + " were ever ahead of the reader; bound " + bound + " bytes");
        System.out.println("ws write backpressure, batches of " + batch + ": parked after " + sentWhileParked
                + " messages, max ahead " + maxAhead.get() + " of " + total + ", drain waits " + serverWs.get().gate().waits());
    }

    /** One message counted by the paused client: {@code ok} when it is the next in order; {@code last} opens {@code all}. */
    private static void tally(boolean last, boolean ok, AtomicInteger outOfOrder, CountDownLatch all) {
        if (!ok) {
            outOfOrder.incrementAndGet();
        }
        if (last) {
            all.countDown();
        }
    }

    /**
     * A client goroutine writes a stream to a server goroutine that does not read yet: the
     * server's inbox fills and pauses the socket, the client's writer parks, the inbox never
     * holds more than its capacity, and once the server reads, every message arrives in order.
     */
    @Test
    void readerThatDoesNotReadPausesTheSocketAndTheRemoteWriterParks() {
        int total = TestSupport.stress(2048, 1024);
        int inbox = 8;
        Chan<Boolean> startReading = new Chan<>(1);
        AtomicReference<GoWebSocket> serverWs = new AtomicReference<>();
        AtomicInteger read = new AtomicInteger();
        AtomicInteger outOfOrder = new AtomicInteger();
        CountDownLatch serverDone = new CountDownLatch(1);
        int port = listen(ws -> {
            serverWs.set(ws);
            try {
                startReading.recv();
                for (GoWebSocket.Message m; (m = ws.read()) != null; ) {
                    int i = read.getAndIncrement();
                    if (m.isText() || m.data().getInt(0) != i || m.data().length() != MSG) {
                        outOfOrder.incrementAndGet();
                    }
                }
            } finally {
                serverDone.countDown();
            }
        }, inbox);
        AtomicReference<Thread> clientWriter = new AtomicReference<>();
        AtomicInteger sent = new AtomicInteger();
        CountDownLatch clientDone = new CountDownLatch(1);
        AtomicReference<GoWebSocket> clientWs = new AtomicReference<>();
        rt.go(() -> {
            try {
                GoWebSocket ws = GoWebSocket.connect(client, to(port));
                clientWs.set(ws);
                clientWriter.set(Thread.currentThread());
                for (int i = 0; i < total; i++) {
                    ws.writeBinary(message(i));
                    sent.incrementAndGet();
                }
                ws.close();
            } finally {
                clientDone.countDown();
            }
        });
        // The inbox pauses the socket once it is full; then the client's writer parks for good.
        TestSupport.awaitCondition(() -> serverWs.get() != null && serverWs.get().inbox().pauses() >= 1
                        && VertxTestSupport.parkedIn(clientWriter.get(), WriteGate.class, "awaitWritable"),
                () -> "the server's inbox never paused the socket with the client writer parked; sent "
                        + sent.get() + ": " + rt.dump());
        GoWebSocket s = serverWs.get();
        assertEquals(inbox, s.inbox().size(), "the inbox holds what it took before the pause");
        assertTrue(sent.get() < total / 4, "the client ran " + sent.get() + " of " + total + " ahead");
        startReading.send(true);
        TestSupport.await(clientDone, () -> "client did not finish: sent " + sent.get() + ", read " + read.get() + rt.dump());
        TestSupport.await(serverDone, () -> "server did not end: read " + read.get() + rt.dump());
        assertEquals(total, read.get());
        assertEquals(0, outOfOrder.get());
        assertTrue(s.inbox().highWater() <= inbox, "inbox high water " + s.inbox().highWater() + " > " + inbox);
        assertTrue(clientWs.get().gate().waits() >= 1);
        System.out.println("ws read backpressure: pauses " + s.inbox().pauses() + ", inbox high water "
                + s.inbox().highWater() + ", client drain waits " + clientWs.get().gate().waits());
    }

    /**
     * Batches of 1 to 40 text messages (and empty ones) from a server goroutine: the client gets
     * every message once, in order, the exact count; a batch to a socket the client closed throws.
     */
    @Test
    void batchesArriveEveryMessageOnceInOrderAndAClosedSocketRefusesTheNext() {
        int batches = TestSupport.stress(2_000, 400);
        AtomicInteger sent = new AtomicInteger();
        AtomicReference<Throwable> afterClose = new AtomicReference<>();
        CountDownLatch serverDone = new CountDownLatch(1);
        int port = listen(ws -> {
            try {
                List<String> batch = new ArrayList<>();
                for (int b = 0; b < batches; b++) {
                    batch.clear();
                    for (int k = 0; k < b % 41; k++) { // b % 41 == 0: an empty batch, nothing sent
                        batch.add("m" + sent.getAndIncrement());
                    }
                    ws.writeTexts(batch);
                }
                ws.writeText("end");
                assertNull(ws.read()); // the client closes once it has "end"
                afterClose.set(assertThrows(WebSocketClosedException.class, () -> ws.writeTexts(List.of("late"))));
            } finally {
                serverDone.countDown();
            }
        }, 4);
        AtomicInteger received = new AtomicInteger();
        AtomicInteger outOfOrder = new AtomicInteger();
        CountDownLatch end = new CountDownLatch(1);
        WebSocket cws = VertxTestSupport.join(client.connect(to(port)).map(ws -> {
            ws.textMessageHandler(t -> {
                if (t.equals("end")) {
                    end.countDown();
                } else if (!t.equals("m" + received.getAndIncrement())) {
                    outOfOrder.incrementAndGet();
                }
            });
            return ws;
        }));
        TestSupport.await(end, () -> "received " + received.get() + " of " + sent.get() + ": " + rt.dump());
        VertxTestSupport.join(cws.close());
        TestSupport.await(serverDone, () -> "server goroutine did not end: " + rt.dump());
        int expected = 0;
        for (int b = 0; b < batches; b++) {
            expected += b % 41;
        }
        assertEquals(expected, sent.get());
        assertEquals(expected, received.get());
        assertEquals(0, outOfOrder.get());
        assertNotNull(afterClose.get());
    }

    @Test
    void blockingCallsRefuseTheEventLoop() {
        AtomicReference<Throwable> onLoop = new AtomicReference<>();
        AtomicReference<Throwable> onLoopBatch = new AtomicReference<>();
        int port = VertxTestSupport.join(vertx.createHttpServer().webSocketHandler(sws -> {
            GoWebSocket ws = GoWebSocket.wrap(sws, 4);
            try {
                ws.readText();
            } catch (Throwable t) {
                onLoop.set(t);
            }
            try {
                ws.writeTexts(List.of("on the loop"));
            } catch (Throwable t) {
                onLoopBatch.set(t);
            }
            sws.close();
        }).listen(0, "127.0.0.1")).actualPort();
        TestSupport.runInGoroutine(rt, () -> {
            GoWebSocket ws = GoWebSocket.connect(client, to(port));
            assertNull(ws.readText());
        });
        assertInstanceOf(IllegalStateException.class, onLoop.get());
        assertTrue(onLoop.get().getMessage().contains("event loop"), onLoop.get().getMessage());
        assertInstanceOf(IllegalStateException.class, onLoopBatch.get());
        assertThrows(IllegalStateException.class, () -> GoWebSocket.wrap(VertxTestSupport.join(
                client.connect(to(port))), 4), "wrap off a Vert.x context");
        assertThrows(IllegalArgumentException.class, () -> GoWebSocket.handler(rt, 0, ws -> { }));
    }

    private static Buffer message(int i) {
        Buffer b = Buffer.buffer(MSG);
        b.appendInt(i);
        for (int k = 4; k < MSG - 4; k++) {
            b.appendByte((byte) k);
        }
        b.appendInt(i);
        return b;
    }
}
