package io.gmp4j.chan;

/**
 * Go's panics on a closed channel, as an unchecked exception with Go's message: {@code "send on
 * closed channel"} or {@code "close of closed channel"}. Like a Go panic it signals a bug in
 * the program (only the sender side should close, and only once), not an expected outcome.
 * Closing the nil channel throws {@link NilChannelException} instead.
 */
public final class ChannelClosedException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    ChannelClosedException(String message) {
        super(message);
    }
}
