package io.gmp4j.bench;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * The two ends of a harness child JVM's life that every kind of child shares: the watchdog that
 * ends a stuck child, and the stop of a child through its stdin.
 */
public final class ChildJvm {
    private ChildJvm() {
    }

    /**
     * In the child: halts the JVM with status 3 after {@code seconds} ({@code -Dgmp4j.bench.timeout});
     * nothing if {@code seconds} is not positive.
     */
    public static void startWatchdog(String who, long seconds) {
        if (seconds <= 0) {
            return;
        }
        Thread t = new Thread(() -> {
            try {
                Thread.sleep(seconds * 1000); // the watchdog's deadline: nothing waits on it
            } catch (InterruptedException e) {
                return;
            }
            System.err.println(who + ": TIMED OUT after " + seconds + " s (-Dgmp4j.bench.timeout)");
            System.err.flush();
            Runtime.getRuntime().halt(3);
        }, "bench-watchdog");
        t.setDaemon(true);
        t.start();
    }

    /**
     * In the parent: closes {@code p}'s stdin (the signal to stop) and waits up to
     * {@code timeoutS}; kills it, saying so with {@code note}, if it does not exit in time.
     */
    public static void stop(Process p, long timeoutS, String note) {
        try {
            p.getOutputStream().close();
        } catch (IOException ignored) {
            // it is going away regardless
        }
        try {
            if (!p.waitFor(timeoutS, TimeUnit.SECONDS)) {
                System.err.println(note + " did not stop within " + timeoutS + " s: killing it");
                p.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }
}
