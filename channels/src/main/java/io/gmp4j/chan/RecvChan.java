package io.gmp4j.chan;

/**
 * The receive side of a channel: Go's {@code <-chan T}. Iterating it is Go's
 * {@code for v := range ch}: it yields values until the channel is closed and drained.
 *
 * @param <T> the element type
 */
public sealed interface RecvChan<T> extends Iterable<T> permits Chan {
    /**
     * Go's {@code v := <-ch}: receives a value, blocking until one is sent.
     *
     * @return the value, or null once the channel is closed and drained (Go's zero value)
     */
    T recv();

    /** Go's {@code v, ok := <-ch}: like {@link #recv}, and says whether a value was received. */
    Recv<T> recvOk();

    /**
     * Go's {@code select { case v, ok := <-ch: default: }}: receives only if that can be done
     * without blocking.
     *
     * @return the result, or null if a receive would block now
     */
    Recv<T> tryRecv();

    /** Go's {@code len(ch)}: values buffered now (a snapshot). */
    int len();

    /** Go's {@code cap(ch)}: the buffer size, 0 for an unbuffered channel. */
    int cap();
}
