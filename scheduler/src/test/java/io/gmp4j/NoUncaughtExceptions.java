package io.gmp4j;

import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.fail;

/**
 * Fails a test when any thread without a handler of its own (an M, sysmon, a helper thread)
 * dies of an uncaught exception while it runs: a scheduler thread that dies (an InternalError
 * from a broken invariant) may otherwise go unnoticed while the test still passes.
 */
public final class NoUncaughtExceptions implements BeforeEachCallback, AfterEachCallback {
    private static final List<String> DEATHS = new ArrayList<>();
    private Thread.UncaughtExceptionHandler previous;

    @Override
    public void beforeEach(ExtensionContext context) {
        previous = Thread.getDefaultUncaughtExceptionHandler();
        synchronized (DEATHS) {
            DEATHS.clear();
        }
        Thread.setDefaultUncaughtExceptionHandler((t, e) -> {
            synchronized (DEATHS) {
                DEATHS.add(t.getName() + ": " + e);
            }
            System.err.println("uncaught in " + t.getName() + ":");
            e.printStackTrace();
        });
    }

    @Override
    public void afterEach(ExtensionContext context) {
        Thread.setDefaultUncaughtExceptionHandler(previous);
        List<String> deaths;
        synchronized (DEATHS) {
            deaths = new ArrayList<>(DEATHS);
            DEATHS.clear();
        }
        if (!deaths.isEmpty()) {
            fail("threads died of uncaught exceptions: " + deaths);
        }
    }
}
