package io.gmp4j.net;

import java.net.SocketTimeoutException;

/**
 * Go's {@code os.ErrDeadlineExceeded}: a read, write, accept or dial passed its deadline
 * ({@link Conn#setDeadline}, a dial timeout). The connection stays usable: set a later deadline
 * (or clear it) and the next operation proceeds. A {@link SocketTimeoutException}, so code
 * written against {@code java.net} sockets recognises it.
 */
public final class DeadlineExceededException extends SocketTimeoutException {
    private static final long serialVersionUID = 1L;

    /** @param op what timed out, in Go's words ("read tcp 127.0.0.1:5000->127.0.0.1:41222") */
    public DeadlineExceededException(String op) {
        super(op + ": i/o timeout");
    }
}
