package io.gmp4j.context;

/** Undoes a {@link Context#onDone} registration: the {@code stop} of Go's {@code context.AfterFunc}. */
@FunctionalInterface
public interface StopFunc {
    /**
     * Go's {@code stop()}: detaches the callback from its context.
     *
     * @return true if this call kept the callback from running; false if it already ran (or
     *     is running) or was already stopped
     */
    boolean stop();
}
