package io.gmp4j.net;

import io.gmp4j.runtime.Scheduler;
import io.gmp4j.GoRuntime;
import io.gmp4j.TestSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

/** One runtime per test class, closed at the end; a buffer leak fails the class. */
abstract class NetTestBase {
    static GoRuntime rt;

    @BeforeAll
    static void start() {
        LeakCheck.install();
        rt = GoRuntime.builder().name("nettest").maxProcs(2).build();
    }

    @AfterAll
    static void stop() {
        rt.close();
        assertPollerStopped();
        LeakCheck.assertNoLeaks();
    }

    static void assertPollerStopped() {
        if (Scheduler.of(rt).attachedNetpoll() instanceof Poller p) {
            try {
                if (!p.awaitStopped(10_000)) {
                    throw new AssertionError("netpoll still running after the runtime closed: " + p);
                }
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        }
    }

    static void go(TestSupport.Body body) {
        TestSupport.runInGoroutine(rt, body);
    }

    /** Starts {@code body} as a goroutine; the returned handle waits for it and rethrows. */
    static Async async(TestSupport.Body body) {
        Async a = new Async();
        rt.go(() -> {
            try {
                body.run();
            } catch (Throwable t) {
                a.failure.set(t);
            } finally {
                a.done.countDown();
            }
        });
        return a;
    }

    static final class Async {
        final CountDownLatch done = new CountDownLatch(1);
        final AtomicReference<Throwable> failure = new AtomicReference<>();

        Throwable join() {
            TestSupport.await(done, () -> rt.stats().toString() + "\n" + rt.dump());
            return failure.get();
        }

        void check() {
            Throwable t = join();
            if (t != null) {
                throw new AssertionError("goroutine failed", t);
            }
        }
    }

    /** Reads exactly {@code n} bytes into {@code b}; fails at EOF. */
    static void readFully(Conn c, byte[] b, int off, int n) throws IOException {
        while (n > 0) {
            int k = c.read(b, off, n);
            if (k < 0) {
                throw new IOException("EOF with " + n + " bytes missing");
            }
            off += k;
            n -= k;
        }
    }

    /** Starts an echo server goroutine: one goroutine per connection copies input to output, then half-closes. */
    static Listener echoServer() throws Exception {
        AtomicReference<Listener> ref = new AtomicReference<>();
        go(() -> ref.set(Net.listen("127.0.0.1:0")));
        Listener l = ref.get();
        rt.go(() -> {
            while (true) {
                Conn c;
                try {
                    c = l.accept();
                } catch (IOException e) {
                    return; // closed
                }
                io.gmp4j.Go.go(() -> {
                    byte[] buf = new byte[32 * 1024];
                    try (c) {
                        int n;
                        while ((n = c.read(buf, 0, buf.length)) > 0) {
                            c.write(buf, 0, n);
                        }
                        c.closeWrite(); // then close: what was written is still sent
                    } catch (IOException e) {
                        // the peer went away
                    }
                });
            }
        });
        return l;
    }
}
