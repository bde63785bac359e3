package io.gmp4j.examples;

import io.gmp4j.chan.RecvChan;
import io.gmp4j.chan.Select;
import java.io.IOException;
import java.time.Duration;

/**
 * The back-off of Go's accept loops ({@code net/http} {@code Server.Serve}) for every server
 * of the examples and the benchmarks: an accept that fails for any reason but the listener's
 * close (out of descriptors: {@code EMFILE}, {@code ENFILE}) is logged in one line and tried
 * again after 5 ms, doubling while accepts keep failing, up to 1 s; an accept that succeeds
 * resets it. Not thread-safe: one per accept loop.
 *
 * <p>Out of descriptors, the JVM cannot load a class either (it opens the class's file), so a
 * back-off made with a quit channel loads what its {@link #pause} needs when it is made, while
 * descriptors are free: make it when the accept loop starts.
 *
 * <pre>{@code
 * AcceptBackoff backoff = new AcceptBackoff(quit);
 * while (true) {
 *     Conn c;
 *     try {
 *         c = listener.accept();
 *     } catch (NetClosedException e) {
 *         return;                                  // closed: the only way out
 *     } catch (IOException e) {
 *         Duration d = backoff.next();
 *         System.err.println(AcceptBackoff.line("chat", e, d));
 *         if (!backoff.pause(d)) {
 *             return;                              // stopping: no need to wait out the delay
 *         }
 *         continue;
 *     }
 *     backoff.reset();
 *     ...
 * }
 * }</pre>
 */
public final class AcceptBackoff {
    /** The first delay after a failed accept (Go: 5 ms). */
    public static final Duration MIN = Duration.ofMillis(5);
    /** The longest delay (Go: 1 s). */
    public static final Duration MAX = Duration.ofSeconds(1);

    /** Zero after a success; else the delay of the last failure. */
    private Duration delay = Duration.ZERO;
    /** What ends a {@link #pause} early; null: this back-off only counts (its caller sleeps). */
    private final RecvChan<?> quit;

    /**
     * A back-off that only computes the delays ({@link #next}): for a loop that sleeps its own
     * way (the JDK server's virtual thread).
     */
    public AcceptBackoff() {
        this.quit = null;
    }

    /**
     * A back-off whose {@link #pause} ends early when {@code quit} is closed (the server
     * stops). Runs one pause of a microsecond now, so that its classes are loaded.
     */
    public AcceptBackoff(RecvChan<?> quit) {
        this.quit = java.util.Objects.requireNonNull(quit, "quit");
        pause(Duration.ofNanos(1_000), quit);
    }

    /** An accept succeeded: the next failure waits {@link #MIN} again. */
    public void reset() {
        delay = Duration.ZERO;
    }

    /** An accept failed: the delay to wait before the next one, {@link #MIN} doubling up to {@link #MAX}. */
    public Duration next() {
        Duration d = delay.isZero() ? MIN : delay.multipliedBy(2);
        delay = d.compareTo(MAX) > 0 ? MAX : d;
        return delay;
    }

    /**
     * The log line, in Go's words: {@code chat: accept error: accept tcp 127.0.0.1:7000: accept4: too many open files; retrying in 5ms}.
     *
     * @param who the server's name, the line's prefix
     */
    public static String line(String who, IOException e, Duration retryIn) {
        return who + ": accept error: " + e.getMessage() + "; retrying in " + goDuration(retryIn);
    }

    /**
     * Waits {@code d} on the runtime's timers (in a goroutine it parks, as {@code time.Sleep}
     * does), or until this back-off's quit channel is closed, whichever is first.
     *
     * @return true if the whole delay passed, false if the quit channel ended it
     * @throws IllegalStateException if this back-off was made without a quit channel
     */
    public boolean pause(Duration d) {
        if (quit == null) {
            throw new IllegalStateException("pause: this AcceptBackoff has no quit channel");
        }
        return pause(d, quit);
    }

    private static boolean pause(Duration d, RecvChan<?> quit) {
        Select s = new Select();
        int q = s.recv(quit);
        s.timeout(d);
        return s.select() != q;
    }

    /** {@code d} as Go's {@code Duration.String} writes the delays here: 5ms, 640ms, 1s. */
    static String goDuration(Duration d) {
        long ms = d.toMillis();
        return ms % 1000 == 0 && ms > 0 ? ms / 1000 + "s" : ms + "ms";
    }
}
