package io.gmp4j.chan;

/**
 * The two results of Go's {@code v, ok := <-ch}.
 *
 * @param value the received value, or null when {@code ok} is false
 * @param ok true if a sent value was received; false once the channel is closed and drained
 * @param <T> the element type
 */
public record Recv<T>(T value, boolean ok) {
    private static final Recv<?> CLOSED = new Recv<>(null, false);

    /** The result of a receive from a closed, drained channel: {@code (null, false)}. */
    @SuppressWarnings("unchecked")
    public static <T> Recv<T> closed() {
        return (Recv<T>) CLOSED;
    }
}
