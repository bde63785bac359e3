package io.gmp4j.vertx;

/**
 * A write to, or a close of, a {@link GoWebSocket} that is closed (by either side, or because
 * the connection was lost), or a write that Vert.x failed. Reads never throw it: a read of a
 * closed socket returns null once every message received before the close was read.
 */
public final class WebSocketClosedException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final Short statusCode;
    private final String reason;

    /**
     * A failed operation on a closed WebSocket.
     *
     * @param message    what was attempted
     * @param statusCode the close frame's status code, or null when no close frame was received
     *                   (a local close, or a lost connection)
     * @param reason     the close frame's reason, or null
     * @param cause      Vert.x's own failure, or null
     */
    public WebSocketClosedException(String message, Short statusCode, String reason, Throwable cause) {
        super(message + (statusCode != null ? " (close status " + statusCode
                + (reason != null && !reason.isEmpty() ? " \"" + reason + "\"" : "") + ")" : ""), cause);
        this.statusCode = statusCode;
        this.reason = reason;
    }

    /** The status code of the close frame the peer sent, or null when none was received. */
    public Short statusCode() {
        return statusCode;
    }

    /** The reason of the close frame the peer sent, or null. */
    public String reason() {
        return reason;
    }
}
