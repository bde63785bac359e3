package io.gmp4j;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.*;

/**
 * A goroutine blocked in file I/O blocks its carrier (the JDK gives a custom scheduler no
 * compensation). Reading a named pipe with one P, the writer can only run if sysmon hands the P
 * off: from a goroutine stuck in user code (plain read), or from a syscall (Syscall.blocking).
 */
@ExtendWith(NoUncaughtExceptions.class)
class PinnedBlockingHandoffTest {
    private static final int WORKERS = 100;

    private Path dir;
    private Path fifo;

    @BeforeEach
    void makeFifo() throws Exception {
        dir = Files.createTempDirectory("gmp4j-fifo");
        fifo = dir.resolve("pipe");
        int rc;
        try {
            Process p = new ProcessBuilder("mkfifo", fifo.toString()).redirectErrorStream(true).start();
            assertTrue(p.waitFor(TestSupport.TIMEOUT_S, TimeUnit.SECONDS), "mkfifo hung");
            rc = p.exitValue();
        } catch (IOException e) {
            rc = -1; // no mkfifo on this system
        }
        Assumptions.assumeTrue(rc == 0 && Files.exists(fifo), "mkfifo is not available");
    }

    @AfterEach
    void removeFifo() throws IOException {
        if (fifo != null) {
            Files.deleteIfExists(fifo);
        }
        if (dir != null) {
            Files.deleteIfExists(dir);
        }
    }

    @Test
    void blockingFifoReadIsHandedOff() throws Exception {
        readWhileOthersWork("pinned-fifo", false);
    }

    @Test
    void blockingFifoReadInASyscallIsHandedOff() throws Exception {
        readWhileOthersWork("pinned-fifo-syscall", true);
    }

    private void readWhileOthersWork(String name, boolean asSyscall) throws Exception {
        try (GoRuntime rt = GoRuntime.builder().maxProcs(1).name(name).build()) {
            CountDownLatch opening = new CountDownLatch(1);
            CountDownLatch readerDone = new CountDownLatch(1);
            AtomicInteger received = new AtomicInteger(-2);
            AtomicReference<Throwable> failure = new AtomicReference<>();
            rt.go(() -> {
                opening.countDown();
                try {
                    Syscall.Call<Integer, IOException> read = () -> {
                        // open(2) blocks until a writer opens the pipe, then read(2) until it writes
                        try (FileInputStream in = new FileInputStream(fifo.toFile())) {
                            return in.read();
                        }
                    };
                    received.set(asSyscall ? Syscall.blocking(read) : read.call());
                } catch (Throwable t) {
                    failure.compareAndSet(null, t);
                } finally {
                    readerDone.countDown();
                }
            });
            try {
                TestSupport.await(opening, () -> rt.stats().toString());
                AtomicInteger left = new AtomicInteger(WORKERS);
                for (int i = 0; i < WORKERS; i++) {
                    rt.go(() -> {
                        TestSupport.burn(20_000);
                        if (left.decrementAndGet() == 0) {
                            try (FileOutputStream out = new FileOutputStream(fifo.toFile())) {
                                out.write(42);
                            } catch (Throwable t) {
                                failure.compareAndSet(null, t);
                            }
                        }
                    });
                }
                TestSupport.await(readerDone, () -> left + " workers left; the P was not handed off: "
                        + rt.stats() + "\n" + rt.dump());
            } finally {
                if (readerDone.getCount() != 0) {
                    // Unblock the reader (and a writer stuck in open) so that close() does not wait.
                    try (RandomAccessFile rw = new RandomAccessFile(fifo.toFile(), "rw")) {
                        rw.write(0);
                    }
                }
            }
            assertNull(failure.get());
            assertEquals(42, received.get(), "the byte arrived");
            SchedStats s = rt.stats();
            System.out.println(name + ": " + s);
            assertTrue(s.handoffs() > 0, () -> "no handoff: " + s);
        }
    }
}
