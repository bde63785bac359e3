package io.gmp4j.bench.net;

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

    /** Throws {@link LoadFailure} with the first error, if any. */
    void check() {
        String m = first.get();
        if (m != null) {
            throw new LoadFailure(m);
        }
    }
}
