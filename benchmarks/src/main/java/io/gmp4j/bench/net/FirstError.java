package io.gmp4j.bench.net;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The first error any connection of a load run reported (later ones are usually its echoes);
 * event-loop threads set it, the driving thread checks it.
 */
final class FirstError {
    private final AtomicReference<String> first = new AtomicReference<>();

    /** Records {@code message} unless an error was recorded before. */
    void set(String message) {
        first.compareAndSet(null, message);
    }

    /** True once an error was recorded. */
    boolean isSet() {
        return first.get() != null;
    }

    /**
     * Waits until {@code latch} is down: fails at once when a connection reports an error, and
     * with "not {@code what}" after {@code seconds} (a safety net: a working server gets there in
     * well under a second).
     */
    void await(CountDownLatch latch, String what, long seconds) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        try {
            while (!latch.await(100, TimeUnit.MILLISECONDS)) {
                check();
                if (System.nanoTime() > deadline) {
                    throw new LoadFailure("not " + what + " after " + seconds + " s (" + latch.getCount() + " left)");
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new LoadFailure("interrupted while waiting until " + what);
        }
        check();
    }

    /** Throws {@link LoadFailure} with the first error, if any. */
    void check() {
        String m = first.get();
        if (m != null) {
            throw new LoadFailure(m);
        }
    }
}
