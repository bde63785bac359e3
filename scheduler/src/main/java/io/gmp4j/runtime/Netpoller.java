package io.gmp4j.runtime;

/**
 * The scheduler's network-poller hook: Go's {@code netpoll}, {@code netpollBreak} and
 * {@code netpollAnyWaiters}. The netpoll module fills it; without one the runtime uses
 * {@link TimerSleeper}, which only sleeps until the next timer.
 *
 * <p>{@code findRunnable} calls {@code poll(0, out)} before stealing, and the last M going idle
 * calls {@code poll(delay, out)} with the time to the next timer (or -1 for no timer). The
 * tasks put in {@code out} are made runnable as one batch (Go's {@code injectglist}).
 */
public interface Netpoller {
    /**
     * Polls for ready I/O. {@code delayNanos < 0}: block until something is ready or
     * {@link #wakeup} is called; {@code 0}: do not block; {@code > 0}: block at most that long.
     * Readied tasks (goroutine continuations) are appended to {@code out}.
     */
    void poll(long delayNanos, TaskBatch out);

    /** Go's netpollBreak: makes a blocked {@link #poll} return soon. Any thread. */
    void wakeup();

    /** Go's netpollAnyWaiters: true while some goroutine waits for I/O. */
    boolean hasWaiters();
}
