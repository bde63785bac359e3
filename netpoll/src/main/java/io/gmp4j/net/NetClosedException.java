package io.gmp4j.net;

import java.net.SocketException;

/**
 * Go's {@code net.ErrClosed}: an operation on a {@link Conn} or {@link Listener} that this side
 * closed, including the operations that were parked on it when {@code close} was called.
 */
public final class NetClosedException extends SocketException {
    private static final long serialVersionUID = 1L;

    /** Go's message for net.ErrClosed. */
    public static final String MESSAGE = "use of closed network connection";

    /** @param op the operation, in Go's words ("read tcp 127.0.0.1:5000->127.0.0.1:41222") */
    public NetClosedException(String op) {
        super(op + ": " + MESSAGE);
    }
}
