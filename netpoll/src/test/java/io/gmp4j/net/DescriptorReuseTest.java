package io.gmp4j.net;

import io.gmp4j.TestSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The goroutine's writes on the channel's own descriptor ({@link DirectWriter}) racing the
 * loop's close of it, while new connections open all the time and the kernel hands them the
 * freed numbers: no byte ever reaches another connection.
 *
 * <p>Each client connection carries one stream of 16-byte records (its id, a sequence number
 * from 0), written in writes of 1 to 300 records (through the scratch memory and through
 * buffers) while another goroutine closes it after a random number of them. The server reads
 * every accepted connection to its end and checks every byte against the stream its first
 * record names; clients never read, so a byte sent to a client socket leaves it unread at the
 * close and resets the server's side, which fails too. Exact accounting per connection: the
 * bytes received are a prefix of the stream, at least what the writes that returned carried
 * (less the last one's, which may have raced the close), at most what the writes tried.
 */
class DescriptorReuseTest extends NetTestBase {
    private static final int RECORD = 16;
    private static final int[] RECORDS_PER_WRITE = {1, 3, 17, DirectWriter.SCRATCH_BYTES / RECORD, 300};
    private static boolean wasEnabled;

    @BeforeAll
    static void enable() {
        wasEnabled = DirectWriter.enabled;
        DirectWriter.enabled = true;
    }

    @AfterAll
    static void restore() {
        DirectWriter.enabled = wasEnabled;
    }

    /** What one client connection's writer did. */
    record Sent(long acked, long lastWrite, long attempted, boolean direct) {
    }

    @Test
    void writesRacingClosesNeverReachAnotherConnection() throws Exception {
        int clients = 4;
        int connsPerClient = TestSupport.stress(400, 80);
        int total = clients * connsPerClient;
        AtomicReference<Listener> ref = new AtomicReference<>();
        go(() -> ref.set(Net.listen("127.0.0.1:0")));
        Listener l = ref.get();
        Map<Long, Long> received = new ConcurrentHashMap<>();
        Map<Long, Sent> sent = new ConcurrentHashMap<>();
        AtomicReference<Throwable> bad = new AtomicReference<>();
        AtomicInteger readersDone = new AtomicInteger();
        Async server = async(() -> {
            try {
                while (true) {
                    Conn s = l.accept();
                    rt.go(() -> {
                        try {
                            readStream(s, received);
                        } catch (Throwable t) {
                            bad.compareAndSet(null, t);
                        } finally {
                            s.close();
                            readersDone.incrementAndGet();
                        }
                    });
                }
            } catch (NetClosedException closed) {
                // the test is over
            }
        });
        List<Async> writers = new ArrayList<>();
        for (int k = 0; k < clients; k++) {
            long base = (long) k << 32;
            writers.add(async(() -> {
                for (int i = 0; i < connsPerClient; i++) {
                    long id = base + i;
                    Conn c = Net.dial(l.address());
                    int closeAfter = ThreadLocalRandom.current().nextInt(12);
                    AtomicInteger done = new AtomicInteger();
                    rt.go(() -> {
                        while (done.get() < closeAfter) {
                            Thread.yield();
                        }
                        c.close();
                    });
                    sent.put(id, writeStream(c, id, done));
                }
            }));
        }
        for (Async w : writers) {
            w.check();
        }
        TestSupport.awaitCondition(() -> readersDone.get() == total || bad.get() != null,
                () -> readersDone.get() + " of " + total + " server readers done");
        l.close();
        server.check();
        assertNull(bad.get(), () -> "a stream went wrong: " + bad.get());
        assertEquals(total, sent.size());
        assertTrue(sent.keySet().containsAll(received.keySet()), "only the clients' streams arrived");
        long direct = 0;
        for (var e : sent.entrySet()) {
            Sent s = e.getValue();
            long got = received.getOrDefault(e.getKey(), 0L);
            assertTrue(got >= s.acked - s.lastWrite && got <= s.attempted,
                    () -> "connection " + e.getKey() + ": received " + got + " of " + s);
            direct += s.direct ? 1 : 0;
        }
        assertTrue(direct > total / 2, direct + " of " + total + " connections wrote straight to the socket");
    }

    /**
     * Writes records of {@code id} until a write fails as closed (the closer's close), counting
     * writes in {@code done}. Any other failure fails the test: the peer never closes first.
     */
    private static Sent writeStream(Conn c, long id, AtomicInteger done) throws IOException {
        ByteBuffer buf = ByteBuffer.allocate(300 * RECORD);
        long seq = 0;
        long acked = 0;
        long last = 0;
        boolean direct = c.writer.directWriter() != null;
        for (int w = 0; ; w++) {
            int records = RECORDS_PER_WRITE[w % RECORDS_PER_WRITE.length];
            buf.clear();
            for (int i = 0; i < records; i++) {
                buf.putLong(id).putLong(seq + i);
            }
            buf.flip();
            try {
                if (w % 2 == 0) {
                    c.write(buf);
                } else {
                    c.write(buf.array(), 0, buf.limit());
                }
            } catch (NetClosedException closed) {
                return new Sent(acked, last, acked + records * RECORD, direct && c.writer.directWrites > 0);
            }
            seq += records;
            acked += records * RECORD;
            last = records * RECORD;
            done.incrementAndGet();
            Thread.yield(); // let the closer run: the close should meet a write soon, not megabytes later
        }
    }

    /**
     * Reads {@code s} to its end and checks every byte: a stream of one id (its first record's,
     * no other connection's yet), sequence numbers from 0; a partial record only at the end, and
     * then a prefix of the next one. Records the byte count under the id.
     */
    private static void readStream(Conn s, Map<Long, Long> received) throws IOException {
        byte[] b = new byte[8192];
        ByteBuffer in = ByteBuffer.allocate(b.length + RECORD);
        long id = -1;
        long seq = 0;
        long bytes = 0;
        int n;
        while ((n = s.read(b, 0, b.length)) >= 0) {
            bytes += n;
            in.put(b, 0, n).flip();
            while (in.remaining() >= RECORD) {
                long rid = in.getLong();
                long rseq = in.getLong();
                if (id == -1) {
                    id = rid;
                }
                if (rid != id || rseq != seq) {
                    throw new AssertionError("stream of " + id + " at record " + seq + " carries (" + rid + ", "
                            + rseq + ") on " + s);
                }
                seq++;
            }
            in.compact();
        }
        in.flip();
        if (in.hasRemaining()) {
            ByteBuffer next = ByteBuffer.allocate(RECORD).putLong(id).putLong(seq).flip();
            next.limit(in.remaining());
            if (id == -1 || !next.equals(in)) {
                throw new AssertionError("stream of " + id + " ends in a partial record that is not record " + seq);
            }
        }
        if (id == -1) {
            return; // closed before its first write: nothing to count
        }
        if (received.putIfAbsent(id, bytes) != null) {
            throw new AssertionError("a second server connection carries stream " + id);
        }
    }
}
