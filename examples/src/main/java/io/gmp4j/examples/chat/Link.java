package io.gmp4j.examples.chat;

import java.io.IOException;

/**
 * The connection under a chat {@link Client}: a TCP connection ({@link TcpLink}) or a WebSocket
 * ({@link WsLink}, one text frame per line). The hub and the client's goroutines see only this,
 * so both kinds of user share one hub, one protocol, one slow-client policy and one set of
 * limits. Its reader goroutine is the only caller of {@link #readLine}; its writer the only
 * caller of {@link #write} and {@link #closeWrite}; {@link #close} may be called by anyone, at
 * any time. The idle timeout is not the link's: the client's {@code IdleWatchdog} keeps it.
 */
interface Link {
    /**
     * The next line ({@link LineIn#TOO_LONG}, by identity, for one over the limit, which was
     * dropped), cleaned of control characters; null at the end of the stream.
     *
     * @throws IOException the connection broke or was closed
     */
    String readLine() throws IOException;

    /**
     * Writes {@code lines[0, n)} as one batch (one socket write on TCP, one text frame per line
     * on a WebSocket); returns once the peer's pipe took them (the writer parks while the peer
     * is slow: that is what fills the client's queue).
     */
    void write(Client.Wire[] lines, int n) throws IOException;

    /**
     * After the last {@link #write}, at shutdown: the peer sees the end (a FIN, a WebSocket
     * close frame) after what was written, and the connection ends once the peer closes too (or
     * the hub {@link #close}s it after the grace period).
     */
    void closeWrite() throws IOException;

    /** After the last {@link #write}: closes once what was written is on its way (nothing is cut off). */
    void end();

    /**
     * Closes both ways at once, whatever is still queued (a client too slow, the grace period
     * over); a read or write parked on it fails. Idempotent.
     */
    void close();

    /** The peer's address, for logs. */
    String peer();
}
