package io.gmp4j.net;

import io.gmp4j.TestSupport;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.BindException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Network errors read as Go's: {@code op tcp address: syscall: text}, addresses as
 * {@code host:port} ({@code [::1]:port} for IPv6), the cause kept, Java's exception types.
 * Descriptors exhausted: {@link DescriptorLimitTest}.
 */
class NetErrorsTest extends NetTestBase {
    @Test
    void addressesAsGoPrintsThem() throws Exception {
        assertEquals("127.0.0.1:80", NetErrors.hostPort(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), 80)));
        assertEquals("[::1]:7000", NetErrors.hostPort(new InetSocketAddress(InetAddress.getByName("::1"), 7000)));
        assertEquals("[::]:0", NetErrors.hostPort(new InetSocketAddress(InetAddress.getByName("::"), 0)));
        assertEquals("[2001:db8::1:0:0:1]:443",
                NetErrors.hostPort(new InetSocketAddress(InetAddress.getByName("2001:db8:0:0:1:0:0:1"), 443)));
        assertEquals("[fe80::1:2]:9", NetErrors.hostPort(new InetSocketAddress(InetAddress.getByName("fe80:0:0:0:0:0:1:2"), 9)));
        assertEquals("[1:0:2::]:9", NetErrors.hostPort(new InetSocketAddress(InetAddress.getByName("1:0:2:0:0:0:0:0"), 9)));
        assertEquals("nowhere.invalid:5", NetErrors.hostPort(InetSocketAddress.createUnresolved("nowhere.invalid", 5)));
    }

    /**
     * IPv6 loopback in brackets: a listener's address, and a dial refused after it closed; a
     * host without IPv6 gets Go's bind error for the address instead.
     */
    @Test
    void ipv6AddressesInBrackets() throws Exception {
        go(() -> {
            Listener l;
            try {
                l = Net.listen("[::1]:0");
            } catch (BindException noV6) {
                assertEquals("listen tcp [::1]:0: bind: cannot assign requested address", noV6.getMessage());
                return;
            }
            String addr = "[::1]:" + l.address().getPort();
            assertEquals("tcp " + addr, l.toString());
            try (Conn c = Net.dial(addr); Conn s = l.accept()) {
                assertEquals("tcp " + addr + "->[::1]:" + c.localAddress().getPort(), s.toString());
            } finally {
                l.close();
            }
            try (Socket holder = new Socket()) { // bound, never listening: refused, and no one else gets the port
                holder.bind(new InetSocketAddress(InetAddress.getByName("::1"), 0));
                String refused = "[::1]:" + holder.getLocalPort();
                ConnectException e = assertThrows(ConnectException.class, () -> Net.dial(refused));
                assertEquals("dial tcp " + refused + ": connect: connection refused", e.getMessage());
            }
        });
    }

    @Test
    void aRefusedDial() throws Exception {
        try (Socket holder = TestSupport.refusingPort()) {
            String addr = "127.0.0.1:" + holder.getLocalPort();
            go(() -> {
                for (Duration timeout : new Duration[]{null, Duration.ofSeconds(5)}) {
                    ConnectException e = assertThrows(ConnectException.class, () -> Net.dial(addr, timeout));
                    assertEquals("dial tcp " + addr + ": connect: connection refused", e.getMessage());
                    assertNotNull(e.getCause(), "Netty's exception is the cause");
                    assertFalse(Net.isTemporary(e));
                }
            });
        }
    }

    @Test
    void aListenOnAPortInUse() throws Exception {
        go(() -> {
            try (Listener l = Net.listen("127.0.0.1:0")) {
                String addr = "127.0.0.1:" + l.address().getPort();
                assertEquals("tcp " + addr, l.toString());
                BindException e = assertThrows(BindException.class, () -> Net.listen(addr));
                assertEquals("listen tcp " + addr + ": bind: address already in use", e.getMessage());
                assertNotNull(e.getCause());
            }
        });
    }

    /**
     * A listener whose backlog is full and that never accepts: Linux drops the next SYN
     * ({@code tcp_abort_on_overflow} 0), so the dial waits until its timeout.
     */
    @Test
    void aDialThatTimesOut() throws Exception {
        try (ServerSocket full = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            String addr = "127.0.0.1:" + full.getLocalPort();
            go(() -> {
                List<Conn> queued = new ArrayList<>();
                try {
                    DeadlineExceededException e = null;
                    for (int i = 0; i < 16 && e == null; i++) {
                        try {
                            queued.add(Net.dial(addr, Duration.ofMillis(300)));
                        } catch (DeadlineExceededException timedOut) {
                            e = timedOut;
                        }
                    }
                    assertNotNull(e, queued.size() + " dials queued and none timed out");
                    assertEquals("dial tcp " + addr + ": i/o timeout", e.getMessage());
                    assertTrue(Net.isTemporary(e), "a timeout is temporary, as Go's");
                    assertNotNull(e.getCause());
                } finally {
                    for (Conn c : queued) {
                        c.close();
                    }
                }
            });
        }
    }

    /** A reset read and a connection's own address in every message. */
    @Test
    void aResetReadNamesBothEnds() throws Exception {
        try (ServerSocket ss = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Thread peer = Thread.ofPlatform().start(() -> {
                try (Socket so = ss.accept()) {
                    so.getInputStream().read();
                    so.setSoLinger(true, 0);
                } catch (IOException e) {
                    throw new RuntimeException(e);
                }
            });
            go(() -> {
                try (Conn c = Net.dial("127.0.0.1:" + ss.getLocalPort())) {
                    String op = "read tcp 127.0.0.1:" + c.localAddress().getPort() + "->127.0.0.1:" + ss.getLocalPort();
                    assertEquals(op.substring("read ".length()), c.toString());
                    c.write(new byte[]{1});
                    IOException e = assertThrows(IOException.class, () -> {
                        byte[] buf = new byte[16];
                        while (c.read(buf, 0, buf.length) >= 0) {
                            // until the reset
                        }
                    });
                    assertInstanceOf(SocketException.class, e);
                    assertEquals(op + ": read: connection reset by peer", e.getMessage());
                    assertFalse(Net.isTemporary(e));
                }
            });
            peer.join(TestSupport.TIMEOUT_S * 1000);
        }
    }

    @Test
    void aWriteAfterCloseWriteIsABrokenPipe() throws Exception {
        Conn[] p = ConnTest.pair();
        try {
            go(() -> {
                p[0].closeWrite();
                SocketException e = assertThrows(SocketException.class, () -> p[0].write(new byte[1]));
                assertEquals("write " + p[0] + ": write: broken pipe", e.getMessage());
            });
        } finally {
            p[0].close();
            p[1].close();
        }
    }

    @Test
    void aClosedListenerIsNotTemporary() throws Exception {
        go(() -> {
            Listener l = Net.listen("127.0.0.1:0");
            String addr = "127.0.0.1:" + l.address().getPort();
            l.close();
            NetClosedException e = assertThrows(NetClosedException.class, l::accept);
            assertEquals("accept tcp " + addr + ": use of closed network connection", e.getMessage());
            assertFalse(Net.isTemporary(e));
        });
    }
}
