package io.gmp4j.sync;

/**
 * Something that can be locked and unlocked: Go's {@code sync.Locker}. Implemented by
 * {@link Mutex}, {@link RWMutex} (its write lock) and {@link RWMutex#rlocker()}.
 */
public interface Locker {
    /** Go's {@code l.Lock()}. */
    void lock();

    /** Go's {@code l.Unlock()}. */
    void unlock();
}
