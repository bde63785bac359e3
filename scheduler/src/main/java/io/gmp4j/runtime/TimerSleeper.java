package io.gmp4j.runtime;

import java.util.concurrent.locks.LockSupport;

/**
 * The {@link Netpoller} of a runtime without network polling: the idle M that holds the poll
 * token just sleeps until the next timer, and {@link #wakeup} cuts the sleep short when an
 * earlier timer arrives (Go's {@code notetsleep} path on platforms without a poller).
 */
final class TimerSleeper implements Netpoller {
    private volatile Thread sleeper;
    private volatile boolean woken;

    @Override
    public void poll(long delayNanos, TaskBatch out) {
        if (delayNanos == 0) {
            return;
        }
        Thread me = Thread.currentThread();
        sleeper = me;
        try {
            long deadline = delayNanos > 0 ? System.nanoTime() + delayNanos : 0;
            // A wakeup() between the caller's decision to sleep and here leaves woken=true,
            // so it is not lost.
            while (!woken) {
                if (delayNanos < 0) {
                    LockSupport.park(this);
                } else {
                    long left = deadline - System.nanoTime();
                    if (left <= 0) {
                        break;
                    }
                    LockSupport.parkNanos(this, left);
                }
            }
        } finally {
            woken = false;
            sleeper = null;
        }
    }

    @Override
    public void wakeup() {
        woken = true;
        Thread t = sleeper;
        if (t != null) {
            LockSupport.unpark(t);
        }
    }

    @Override
    public boolean hasWaiters() {
        return false;
    }
}
