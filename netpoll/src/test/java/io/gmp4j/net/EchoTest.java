package io.gmp4j.net;

import io.gmp4j.runtime.Scheduler;
import io.gmp4j.TestSupport;
import io.gmp4j.SchedStats;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Echo round trips over real loopback sockets, every byte checked. */
class EchoTest extends NetTestBase {

    @ParameterizedTest
    @ValueSource(ints = {1, 1024, 64 * 1024, 1024 * 1024, 16 * 1024 * 1024})
    void echoRoundTripWithChecksum(int size) throws Exception {
        Listener l = echoServer();
        try {
            go(() -> {
                Conn c = Net.dial(l.address());
                byte[] data = new byte[size];
                new SplittableRandom(size).nextBytes(data);
                CRC32 sent = new CRC32();
                sent.update(data);
                // Full duplex: a writer goroutine, so a large payload cannot fill both directions.
                Async writer = async(() -> {
                    // odd-sized writes, mixing the byte[] and ByteBuffer forms
                    int off = 0;
                    boolean heap = true;
                    while (off < size) {
                        int n = Math.min(size - off, 7_919 * 3);
                        if (heap) {
                            c.write(data, off, n);
                        } else {
                            c.write(ByteBuffer.wrap(data, off, n));
                        }
                        heap = !heap;
                        off += n;
                    }
                    c.closeWrite();
                });
                CRC32 got = new CRC32();
                byte[] buf = new byte[50_000];
                ByteBuffer bb = ByteBuffer.allocateDirect(20_000);
                long total = 0;
                boolean heap = true;
                while (true) {
                    int n;
                    if (heap) {
                        n = c.read(buf, 0, buf.length);
                        if (n > 0) {
                            got.update(buf, 0, n);
                        }
                    } else {
                        bb.clear();
                        n = c.read(bb);
                        if (n > 0) {
                            bb.flip();
                            got.update(bb);
                        }
                    }
                    if (n < 0) {
                        break;
                    }
                    heap = !heap;
                    total += n;
                }
                writer.check();
                c.close();
                assertEquals(size, total, "bytes echoed");
                assertEquals(sent.getValue(), got.getValue(), "checksum");
            });
        } finally {
            l.close();
        }
    }

    @Test
    void manyConcurrentConnectionsEveryByteAccountedFor() throws Exception {
        int conns = TestSupport.stress(1000, 100);
        int messages = 10;
        int msgSize = 1000;
        Listener l = echoServer();
        AtomicLong bytes = new AtomicLong();
        try {
            Async[] clients = new Async[conns];
            for (int i = 0; i < conns; i++) {
                int id = i;
                clients[i] = async(() -> {
                    try (Conn c = Net.dial(l.address())) {
                        byte[] msg = new byte[msgSize];
                        byte[] back = new byte[msgSize];
                        SplittableRandom r = new SplittableRandom(id);
                        for (int m = 0; m < messages; m++) {
                            r.nextBytes(msg);
                            c.write(msg, 0, msgSize);
                            readFully(c, back, 0, msgSize);
                            assertArrayEquals(msg, back, "connection " + id + " message " + m);
                            bytes.addAndGet(msgSize);
                        }
                        c.closeWrite();
                        assertEquals(-1, c.read(back, 0, 1), "EOF after the echo of everything");
                    }
                });
            }
            for (Async a : clients) {
                a.check();
            }
        } finally {
            l.close();
        }
        assertEquals((long) conns * messages * msgSize, bytes.get());
        SchedStats s = rt.stats();
        assertTrue(s.injections() > 0, "readied goroutines enter by injectglist: " + s);
        assertTrue(s.netpoll() != null && s.netpoll().startsWith(((Poller) Scheduler.of(rt).attachedNetpoll()).transport.word),
                "stats name the transport: " + s);
        assertTrue(s.counters().contains("netpoll=["), s.counters());
    }

    @Test
    void streamViews() throws Exception {
        Listener l = echoServer();
        try {
            go(() -> {
                try (Conn c = Net.dial("127.0.0.1:" + l.address().getPort())) {
                    byte[] msg = "hello, gopher".getBytes();
                    c.outputStream().write(msg);
                    c.closeWrite();
                    byte[] got = c.inputStream().readAllBytes();
                    assertEquals(new String(msg), new String(got));
                    assertTrue(Arrays.equals(msg, got));
                }
            });
        } finally {
            l.close();
        }
    }
}
