package io.gmp4j.net;

import io.gmp4j.GoRuntime;
import io.gmp4j.TestSupport;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/** The NIO fallback (what runs where epoll does not load), forced by its system property. */
class NioTransportTest {
    @Test
    void echoOverNio() throws Exception {
        LeakCheck.install();
        String old = System.getProperty("gmp4j.netpoll.transport");
        System.setProperty("gmp4j.netpoll.transport", "nio");
        try (GoRuntime rt = GoRuntime.builder().name("nio").maxProcs(2).build()) {
            TestSupport.runInGoroutine(rt, () -> {
                try (Listener l = Net.listen("127.0.0.1:0")) {
                    assertEquals(Poller.Transport.NIO, Poller.current().transport);
                    AtomicReference<Throwable> failed = new AtomicReference<>();
                    io.gmp4j.Go.go(() -> {
                        try (Conn s = l.accept()) {
                            byte[] buf = new byte[8192];
                            int n;
                            while ((n = s.read(buf, 0, buf.length)) > 0) {
                                s.write(buf, 0, n);
                            }
                        } catch (Throwable t) {
                            failed.set(t);
                        }
                    });
                    try (Conn c = Net.dial(l.address())) {
                        byte[] msg = new byte[300_000];
                        new SplittableRandom(7).nextBytes(msg);
                        byte[] back = new byte[msg.length];
                        c.write(msg, 0, 100); // small first, then the rest from another goroutine
                        io.gmp4j.Go.go(() -> {
                            try {
                                c.write(msg, 100, msg.length - 100);
                            } catch (Throwable t) {
                                failed.set(t);
                            }
                        });
                        NetTestBase.readFully(c, back, 0, back.length);
                        assertArrayEquals(msg, back);
                    }
                    assertEquals(null, failed.get());
                }
            });
        } finally {
            if (old == null) {
                System.clearProperty("gmp4j.netpoll.transport");
            } else {
                System.setProperty("gmp4j.netpoll.transport", old);
            }
        }
        LeakCheck.assertNoLeaks();
    }

    /** The JDK's messages ("Connection refused", "Address already in use") read as Go's too. */
    @Test
    void errorsOverNioReadAsGos() throws Exception {
        String old = System.getProperty("gmp4j.netpoll.transport");
        System.setProperty("gmp4j.netpoll.transport", "nio");
        try (GoRuntime rt = GoRuntime.builder().name("nio-errors").maxProcs(2).build();
             java.net.Socket holder = TestSupport.refusingPort()) {
            TestSupport.runInGoroutine(rt, () -> {
                String refused = "127.0.0.1:" + holder.getLocalPort();
                java.net.ConnectException e = org.junit.jupiter.api.Assertions.assertThrows(
                        java.net.ConnectException.class, () -> Net.dial(refused));
                assertEquals("dial tcp " + refused + ": connect: connection refused", e.getMessage());
                try (Listener l = Net.listen("127.0.0.1:0")) {
                    assertEquals(Poller.Transport.NIO, Poller.current().transport);
                    String used = "127.0.0.1:" + l.address().getPort();
                    java.net.BindException b = org.junit.jupiter.api.Assertions.assertThrows(
                            java.net.BindException.class, () -> Net.listen(used));
                    assertEquals("listen tcp " + used + ": bind: address already in use", b.getMessage());
                }
            });
        } finally {
            if (old == null) {
                System.clearProperty("gmp4j.netpoll.transport");
            } else {
                System.setProperty("gmp4j.netpoll.transport", old);
            }
        }
    }
}
