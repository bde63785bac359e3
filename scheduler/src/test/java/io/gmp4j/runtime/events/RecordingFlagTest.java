package io.gmp4j.runtime.events;

import io.gmp4j.Go;
import io.gmp4j.GoRuntime;
import io.gmp4j.TestSupport;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The command line each settings file's header tells users to record with does what it says: a
 * child JVM started with exactly that {@code -XX:StartFlightRecording} option (the file written
 * out by {@link Settings}) records the JDK's default events and the file's gmp4j events. A
 * second settings file after {@code default,} must be an option of its own
 * ({@code settings=default,settings=FILE}); with a bare path the JDK warns and drops the file,
 * and this test sees no gmp4j event.
 */
class RecordingFlagTest {
    /** {@code -XX:StartFlightRecording:OPTIONS ...} on the header's "Use:" line. */
    private static final Pattern USE = Pattern.compile("Use: java (-XX:StartFlightRecording:.+?) \\.\\.\\.");

    /** Five goroutines that each yield ten times: at least six goroutine runs to record. */
    public static final class Program {
        public static void main(String[] args) {
            try (GoRuntime rt = GoRuntime.builder().maxProcs(1).name("recorded").build()) {
                rt.main(() -> {
                    CountDownLatch done = new CountDownLatch(5);
                    for (int i = 0; i < 5; i++) {
                        Go.go(() -> {
                            for (int k = 0; k < 10; k++) {
                                Go.gosched();
                            }
                            done.countDown();
                        });
                    }
                    try {
                        done.await();
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                });
            }
        }
    }

    @Test
    void theProfilesDocumentedFlagRecordsTheJdksDefaultsAndTheSchedulersEvents(@TempDir Path dir) throws Exception {
        Path jfc = Files.writeString(dir.resolve("gmp4j-profile.jfc"), Settings.text(Settings.PROFILE));
        Path jfr = dir.resolve("rec.jfr");
        String flag = documentedFlag(Settings.PROFILE).replace("<this file>", jfc.toString()).replace("rec.jfr", jfr.toString());
        List<String> flags = new ArrayList<>(TestSupport.GMP4J_JVM_FLAGS);
        flags.add(flag);
        TestSupport.ChildRun run = TestSupport.runChildJvm(List.of(), flags, Program.class);
        assertEquals(0, run.exit(), run.output());
        assertFalse(run.output().contains("doesn't exist"), "the JDK ignored part of " + flag + ":\n" + run.output());

        int gmp4jRuns = 0;
        boolean jdkDefaults = false;
        for (RecordedEvent e : RecordingFile.readAllEvents(jfr)) {
            String type = e.getEventType().getName();
            if (type.equals("io.gmp4j.GoroutineRun") && "recorded".equals(e.getString("runtime"))) {
                gmp4jRuns++;
            }
            // periodic at the start of every chunk in the JDK's default settings, off unless they are on
            jdkDefaults |= type.equals("jdk.JVMInformation");
        }
        assertTrue(gmp4jRuns >= 6, "gmp4j-profile's GoroutineRun events recorded: " + gmp4jRuns + " with " + flag + "\n" + run.output());
        assertTrue(jdkDefaults, "the JDK's default events were not recorded with " + flag);
    }

    @Test
    void bothSettingsFilesDocumentTheSameFormOfTheFlag() throws Exception {
        for (String name : List.of(Settings.DEFAULT, Settings.PROFILE)) {
            assertTrue(documentedFlag(name).startsWith("-XX:StartFlightRecording:settings=default,settings=<this file>,filename="),
                    name + ".jfc: " + documentedFlag(name));
        }
    }

    private static String documentedFlag(String settings) throws Exception {
        Matcher m = USE.matcher(Settings.text(settings));
        assertTrue(m.find(), settings + ".jfc has no 'Use: java -XX:StartFlightRecording:... ...' line");
        return m.group(1);
    }
}
