package io.gmp4j.chan;

/**
 * Go's panic {@code "close of nil channel"}, as an unchecked exception with Go's message: the
 * program closed {@link Chan#nil()}. Like {@link ChannelClosedException} it signals a bug in the
 * program, not an expected outcome.
 */
public final class NilChannelException extends IllegalStateException {
    private static final long serialVersionUID = 1L;

    NilChannelException(String message) {
        super(message);
    }
}
