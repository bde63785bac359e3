/**
 * Goroutines on Vert.x 5. This module owns the meeting of the two: a goroutine waits for a
 * Vert.x {@link io.vertx.core.Future} in blocking style ({@link io.gmp4j.vertx.Await}), parking
 * instead of blocking a carrier, and never on an event loop; Vert.x HTTP requests
 * ({@link io.gmp4j.vertx.GoRequest}), WebSocket connections ({@link io.gmp4j.vertx.GoWebSocket})
 * and event-bus messages ({@link io.gmp4j.vertx.GoEventBus}) are handled by goroutines with
 * Vert.x's backpressure kept (a slow goroutine pauses the stream; a goroutine writing faster
 * than the peer reads parks until the drain); and event-bus addresses are bridged to gmp4j
 * channels in both directions ({@link io.gmp4j.vertx.GoEventBus}).
 *
 * <p>No gmp4j code runs on a Vert.x thread beyond the hand-off (an offer to a bounded inbox, a
 * goroutine's wake-up), and no Vert.x event loop ever waits for a goroutine.
 *
 * <pre>{@code
 * Vertx vertx = Vertx.vertx();
 * HttpServer server = vertx.createHttpServer()
 *         .requestHandler(GoRequest.handler(req -> req.end("hello " + req.request().path())))
 *         .webSocketHandler(GoWebSocket.handler(ws -> {
 *             for (String m; (m = ws.readText()) != null; ) {
 *                 ws.writeText(m);
 *             }
 *         }));
 * Await.await(server.listen(8080));
 * }</pre>
 */
package io.gmp4j.vertx;
