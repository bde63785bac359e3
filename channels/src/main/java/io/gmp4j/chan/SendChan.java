package io.gmp4j.chan;

/**
 * The send side of a channel: Go's {@code chan<- T}. Hand it to code that should only produce.
 *
 * @param <T> the element type
 */
public sealed interface SendChan<T> permits Chan {
    /**
     * Go's {@code ch <- v}: sends {@code value}, blocking until a receiver takes it (unbuffered)
     * or there is room in the buffer; forever on the nil channel.
     *
     * @throws NullPointerException if value is null: a channel carries non-null values
     * @throws ChannelClosedException "send on closed channel", also when the channel is closed
     *     while the sender waits
     */
    void send(T value);

    /**
     * Go's {@code select { case ch <- v: default: }}: sends only if that can be done without
     * blocking.
     *
     * @return true if the value was sent (never, on the nil channel)
     * @throws NullPointerException if value is null
     * @throws ChannelClosedException "send on closed channel"
     */
    boolean trySend(T value);

    /**
     * Go's {@code close(ch)}: no more values will be sent. Receivers drain what is buffered and
     * then get {@code (zero, false)}; blocked senders fail with "send on closed channel".
     *
     * @throws ChannelClosedException "close of closed channel"
     * @throws NilChannelException "close of nil channel"
     */
    void close();

    /** Go's {@code len(ch)}: values buffered now (a snapshot); 0 for the nil channel. */
    int len();

    /** Go's {@code cap(ch)}: the buffer size, 0 for an unbuffered or the nil channel. */
    int cap();
}
