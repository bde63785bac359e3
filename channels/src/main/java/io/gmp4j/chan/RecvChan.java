package io.gmp4j.chan;

/**
 * The receive side of a channel: Go's {@code <-chan T}. Iterating it is Go's
 * {@code for v := range ch}: it yields values until the channel is closed and drained (on the
 * nil channel it blocks forever, as Go's range over a nil channel).
 *
 * @param <T> the element type
 */
public sealed interface RecvChan<T> extends Iterable<T> permits Chan {
    /**
     * Go's {@code v := <-ch}: receives a value, blocking until one is sent (forever on the nil
     * channel).
     *
     * @return the value, or the channel's zero value once it is closed and drained (null unless
     *     made with {@link Chan#Chan(int, Object)})
     */
    T recv();

    /**
     * Go's {@code v, ok := <-ch}: like {@link #recv}, and says whether a value was received:
     * {@code (zero, false)} once the channel is closed and drained.
     */
    Recv<T> recvOk();

    /**
     * Go's {@code select { case v, ok := <-ch: default: }}: receives only if that can be done
     * without blocking.
     *
     * @return the result, or null if a receive would block now (always, on the nil channel)
     */
    Recv<T> tryRecv();

    /** Go's {@code len(ch)}: values buffered now (a snapshot); 0 for the nil channel. */
    int len();

    /** Go's {@code cap(ch)}: the buffer size, 0 for an unbuffered or the nil channel. */
    int cap();
}
