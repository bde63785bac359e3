package io.gmp4j.runtime;

import java.util.concurrent.locks.LockSupport;

/**
 * The sleep of the last idle M, the one holding the poll token ({@code lastpoll == 0}): it
 * sleeps until the next timer, and {@link #wakeup} cuts the sleep short when an earlier timer
 * arrives (Go's {@code netpoll(delay)} by the last M going idle, on a platform without a
 * poller). No M polls the network here: a poller thread or a per-P poll goroutine does
 * ({@link io.gmp4j.runtime.spi.Netpoll}).
 */
final class TimerSleeper {
    private volatile Thread sleeper;
    private volatile boolean woken;

    /** Sleeps at most {@code delayNanos}, or until {@link #wakeup}; returns at once for 0. */
    void sleep(long delayNanos) {
        if (delayNanos <= 0) {
            return;
        }
        Thread me = Thread.currentThread();
        sleeper = me;
        try {
            long deadline = System.nanoTime() + delayNanos;
            // A wakeup() between the caller's decision to sleep and here leaves woken=true,
            // so it is not lost.
            while (!woken) {
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    break;
                }
                LockSupport.parkNanos(this, left);
            }
        } finally {
            woken = false;
            sleeper = null;
        }
    }

    /** Makes a sleeping {@link #sleep} return soon (Go's netpollBreak). Any thread. */
    void wakeup() {
        woken = true;
        Thread t = sleeper;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }
}
