package io.gmp4j.net;

import io.gmp4j.TestSupport;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicReference;
import java.util.zip.CRC32;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Whole-write turns, LimitListener, Io.copy/proxy and the line reader. */
class ExtrasTest extends NetTestBase {

    @Test
    void concurrentWritesDoNotInterleave() throws Exception {
        Conn[] p = ConnTest.pair();
        Conn c = p[0], s = p[1];
        int writers = 4, messages = TestSupport.stress(20, 5), size = 200 * 1024; // > one chunk
        try {
            Async[] ws = new Async[writers];
            for (int i = 0; i < writers; i++) {
                byte[] msg = new byte[size];
                java.util.Arrays.fill(msg, (byte) (i + 1));
                ws[i] = async(() -> {
                    for (int m = 0; m < messages; m++) {
                        c.write(msg);
                    }
                });
            }
            go(() -> {
                byte[] msg = new byte[size];
                int[] perWriter = new int[writers + 1];
                for (int m = 0; m < writers * messages; m++) {
                    readFully(s, msg, 0, size);
                    byte id = msg[0];
                    for (int k = 1; k < size; k++) {
                        if (msg[k] != id) {
                            throw new AssertionError("message " + m + " mixes writers " + id + " and " + msg[k] + " at " + k);
                        }
                    }
                    perWriter[id]++;
                }
                for (int i = 1; i <= writers; i++) {
                    assertEquals(messages, perWriter[i]);
                }
            });
            for (Async a : ws) {
                a.check();
            }
        } finally {
            c.close();
            s.close();
        }
    }

    @Test
    void limitListenerWaitsForASlot() throws Exception {
        AtomicReference<Listener> ref = new AtomicReference<>();
        go(() -> ref.set(Net.listen("127.0.0.1:0").limit(2)));
        Listener l = ref.get();
        Conn[] clients = new Conn[3];
        Conn[] accepted = new Conn[3];
        try {
            go(() -> {
                for (int i = 0; i < 3; i++) {
                    clients[i] = Net.dial(l.address());
                }
                accepted[0] = l.accept();
                accepted[1] = l.accept();
            });
            Async third = async(() -> accepted[2] = l.accept());
            TestSupport.awaitCondition(() -> l.parkedAcceptors() == 1, () -> "third accept never parked");
            assertNull(accepted[2], "a third connection while two are open");
            accepted[0].close(); // frees a slot
            third.check();
            go(() -> {
                accepted[2].write(new byte[]{9});
                byte[] b = new byte[1];
                assertEquals(1, clients[2].read(b, 0, 1));
                assertEquals(9, b[0]);
            });
        } finally {
            for (Conn c : clients) {
                if (c != null) {
                    c.close();
                }
            }
            for (Conn c : accepted) {
                if (c != null) {
                    c.close();
                }
            }
            l.close();
        }
    }

    @Test
    void aProxyWhoseClientResetsEndsAlthoughItsUpstreamIsSilent() throws Exception {
        AtomicReference<Listener> refs = new AtomicReference<>();
        go(() -> refs.set(Net.listen("127.0.0.1:0")));
        Listener silent = refs.get(); // accepts, then never sends nor closes
        go(() -> refs.set(Net.listen("127.0.0.1:0")));
        Listener front = refs.get();
        try {
            Async upstream = async(() -> {
                Conn held = silent.accept();
                byte[] b = new byte[16];
                int n;
                long got = 0;
                while ((n = held.read(b, 0, b.length)) >= 0) {
                    got += n; // the client's byte, if it got through before the reset
                }
                assertTrue(got <= 1, "bytes from nowhere: " + got); // EOF: the proxy closed its upstream
                held.close();
            });
            Async proxy = async(() -> {
                Conn in = front.accept();
                Conn out = Net.dial(silent.address());
                IOException e = assertThrows(IOException.class, () -> Io.proxy(in, out));
                assertTrue(e.getMessage().contains("reset"), e.getMessage());
            });
            try (java.net.Socket client = new java.net.Socket()) {
                client.connect(front.address());
                client.getOutputStream().write(1);
                client.setSoLinger(true, 0); // close sends a reset
            }
            proxy.check();
            upstream.check();
        } finally {
            front.close();
            silent.close();
        }
    }

    @Test
    void proxyCopiesBothWays() throws Exception {
        Listener echo = echoServer();
        AtomicReference<Listener> ref = new AtomicReference<>();
        go(() -> ref.set(Net.listen("127.0.0.1:0")));
        Listener front = ref.get();
        long[][] counts = new long[1][];
        int size = 3 * 1024 * 1024 + 17;
        try {
            Async proxy = async(() -> {
                try (Conn in = front.accept(); Conn out = Net.dial(echo.address())) {
                    counts[0] = Io.proxy(in, out);
                }
            });
            go(() -> {
                try (Conn c = Net.dial(front.address())) {
                    byte[] data = new byte[size];
                    new SplittableRandom(3).nextBytes(data);
                    Async w = async(() -> {
                        c.write(data);
                        c.closeWrite();
                    });
                    byte[] back = new byte[size];
                    readFully(c, back, 0, size);
                    assertEquals(-1, c.read(new byte[1], 0, 1));
                    w.check();
                    CRC32 a = new CRC32(), b = new CRC32();
                    a.update(data);
                    b.update(back);
                    assertEquals(a.getValue(), b.getValue());
                }
            });
            proxy.check();
            assertArrayEquals(new long[]{size, size}, counts[0]);
        } finally {
            front.close();
            echo.close();
        }
    }

    @Test
    void lineReader() throws Exception {
        Io.LineReader r = new Io.LineReader(new ByteArrayInputStream(
                "one\r\ntwo\n\nfour".getBytes(StandardCharsets.UTF_8)), 8);
        assertEquals("one", r.readLine());
        assertEquals("two", r.readLine());
        assertEquals("", r.readLine());
        assertEquals("four", r.readLine());
        assertNull(r.readLine());

        Io.LineReader tooLong = new Io.LineReader(new ByteArrayInputStream("12345678\n123456789\n".getBytes()), 8);
        assertEquals("12345678", tooLong.readLine());
        IOException e = assertThrows(IOException.class, tooLong::readLine);
        assertEquals("bufio.Scanner: token too long", e.getMessage());

        // skipping mode: an over-long line (even one far past the buffer) is dropped up to its
        // '\n' and reported, and the lines around it come through
        String huge = "x".repeat(100_000);
        Io.LineReader skip = new Io.LineReader(new ByteArrayInputStream(
                ("12345678\r\n123456789\n" + huge + "\nafter\n" + huge).getBytes()), 8, true);
        assertEquals("12345678", skip.readLine());
        assertSame(Io.LineReader.TOO_LONG, skip.readLine());
        assertSame(Io.LineReader.TOO_LONG, skip.readLine());
        assertEquals("after", skip.readLine());
        assertSame(Io.LineReader.TOO_LONG, skip.readLine(), "an over-long last line without '\\n'");
        assertNull(skip.readLine());

        // over a connection, lines split across reads, then a body
        Conn[] p = ConnTest.pair();
        Conn c = p[0], s = p[1];
        try {
            go(() -> {
                StringBuilder sb = new StringBuilder();
                for (int i = 0; i < 1000; i++) {
                    sb.append("line ").append(i).append('\n');
                }
                Async w = async(() -> {
                    byte[] all = sb.toString().getBytes(StandardCharsets.US_ASCII);
                    for (int off = 0; off < all.length; off += 333) {
                        c.write(all, off, Math.min(333, all.length - off));
                    }
                    c.write("BODY".getBytes(StandardCharsets.US_ASCII));
                    c.closeWrite();
                });
                Io.LineReader lr = new Io.LineReader(s, 64);
                for (int i = 0; i < 1000; i++) {
                    assertEquals("line " + i, lr.readLine());
                }
                assertEquals("BODY", new String(lr.readFully(4), StandardCharsets.US_ASCII));
                assertNull(lr.readLine());
                w.check();
            });
        } finally {
            c.close();
            s.close();
        }
    }
}
