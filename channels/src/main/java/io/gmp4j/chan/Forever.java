package io.gmp4j.chan;

import io.gmp4j.runtime.G;
import io.gmp4j.runtime.Waiter;
import java.util.concurrent.locks.LockSupport;

/**
 * Go's {@code gopark} with no waker: the wait of a send or receive on the nil channel and of
 * {@code select {}} ({@code block()} in Go's {@code runtime/select.go}). Nothing can end it.
 *
 * <p>A goroutine parks in {@link G#park} with Go's wait reason, so the goroutine dump shows it
 * and the deadlock detector counts it asleep. Any other thread parks itself, with a
 * {@link Waiter} as its blocker, and is not registered as a platform waiter: such a thread can
 * never wake a goroutine again, so it must not hold off the detection of a deadlock among them.
 * Not interruptible, as every gmp4j wait: an interrupt is absorbed.
 */
final class Forever {
    private Forever() {
    }

    /** Parks the calling thread for good; {@code reason} is Go's wait reason. Never returns. */
    static void park(String reason) {
        Waiter w = Waiter.current();
        G g = w.goroutine();
        while (true) {
            if (g != null) {
                g.park(reason, true); // durable in a bubble, as Go's; nothing holds this goroutine to ready it: the loop is a guard
            } else {
                LockSupport.park(w);
                Thread.interrupted(); // clear it, else park returns at once, every time
            }
        }
    }
}
