package io.gmp4j.chan;

/**
 * The two results of Go's {@code v, ok := <-ch}.
 *
 * @param value the received value, or the channel's zero value (null unless the channel was
 *     made with one) when {@code ok} is false
 * @param ok true if a sent value was received; false once the channel is closed and drained
 * @param <T> the element type
 */
public record Recv<T>(T value, boolean ok) {
    private static final Recv<?> CLOSED = new Recv<>(null, false);

    /**
     * The result of a receive from a closed, drained channel made without a zero value:
     * {@code (null, false)}.
     */
    @SuppressWarnings("unchecked")
    public static <T> Recv<T> closed() {
        return (Recv<T>) CLOSED;
    }
}
