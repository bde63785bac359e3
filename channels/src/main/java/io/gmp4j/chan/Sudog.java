package io.gmp4j.chan;

import io.gmp4j.runtime.G;
import io.gmp4j.runtime.Waiter;

/**
 * Go's sudog: one waiter's place in one channel's queue of senders or receivers. A plain
 * send or receive owns one; a select owns one per case, all sharing one {@link Waiter} whose
 * claim decides which case fires.
 *
 * <p>Every field is guarded by the lock of {@link #chan} while the sudog is queued; the waiter
 * reads {@link #elem} and {@link #success} after its park returns, ordered by the wake-up.
 */
final class Sudog {
    Waiter waiter;
    /** The channel whose queue holds this sudog. */
    Chan<?> chan;
    /** Sending: the value to send. Receiving: the value received (null if closed). */
    Object elem;
    /** True if a value was delivered; false if woken because the channel closed (Go's success). */
    boolean success;
    /** True for a select case: a waker must win {@link Waiter#claim} before using it. */
    boolean isSelect;
    /** The select case this sudog stands for. */
    int caseIndex;
    Sudog next;
    Sudog prev;
    /** True while linked in a queue (Go checks the links; a flag reads plainer). */
    boolean queued;

    Sudog() {
    }

    Sudog(Waiter waiter, Chan<?> chan, Object elem) {
        this.waiter = waiter;
        this.chan = chan;
        this.elem = elem;
    }

    /**
     * Go's acquireSudog: the record for a plain blocking send or receive by the calling thread.
     * A goroutine reuses one cached in its G (with its waiter), so a blocking operation
     * allocates nothing; other threads get a new one.
     *
     * <p>Reuse is safe because the one waker of a plain operation reads {@code waiter} before it
     * calls {@code wake()} and touches the record no more after it, and the record leaves every
     * queue before that.
     */
    static Sudog acquire(Chan<?> c, Object elem) {
        G g = G.current();
        if (g != null && g.takeChanCache() instanceof Sudog sg) {
            sg.waiter.reset();
            sg.chan = c;
            sg.elem = elem;
            sg.success = false;
            return sg;
        }
        return new Sudog(Waiter.current(), c, elem);
    }

    /** Go's releaseSudog: after the wait, gives a goroutine's record back to its G's cache. */
    void release() {
        G g = waiter.goroutine();
        if (g != null) {
            elem = null; // keep no value reachable from the cache
            chan = null;
            g.cacheForChan(this);
        }
    }
}
