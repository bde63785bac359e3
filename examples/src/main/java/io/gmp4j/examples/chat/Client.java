package io.gmp4j.examples.chat;

import io.gmp4j.actor.ActorRef;
import io.gmp4j.chan.Chan;
import io.gmp4j.chan.Recv;
import io.gmp4j.chan.Select;
import io.gmp4j.examples.IdleWatchdog;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * One chat connection as the hub sees it, TCP or WebSocket alike ({@link Link}), and its two
 * goroutines: the writer ({@link #writeLoop}), which writes what the hub queues for it, and the
 * reader ({@link #readLoop}), which posts what it reads to the hub and never writes.
 * {@code nick}, {@code room}, {@code gone} and the other plain fields belong to the hub
 * goroutine; the writer touches only {@link #out}, {@link #wantsRoom}, {@link #halfClose} and
 * {@link #link}'s write side, the reader only its read side.
 */
final class Client {
    /** The most bytes the writer puts in one socket write. */
    static final int MAX_BATCH = 64 * 1024;

    final Link link;
    /** Lines waiting for the writer ({@link #wire}). */
    final Chan<Wire> out;
    String nick;
    String room;
    boolean gone;
    /** Lines dropped for this client since it connected ({@link ChatConfig.SlowPolicy#DROP}). */
    long dropped;
    /** Lines dropped since the last drop notice queued for it. */
    long unreported;
    /**
     * Set by the hub when it drops a line for this client; the writer clears it once it has
     * taken lines off {@code out} and tells the hub there is room.
     */
    final AtomicBoolean wantsRoom = new AtomicBoolean();
    /** Written by the hub before closing {@code out}; the writer reads it after. */
    volatile boolean halfClose;

    // ---- clustered only (ClusterBridge), hub-owned
    /** The nickname being claimed cluster-wide; non-null while the claim is out. */
    String claiming;
    /** Lines read while {@link #claiming}: handled in order once the claim is answered. */
    final ArrayDeque<String> held = new ArrayDeque<>();
    /** The actor that holds {@link #nick}'s cluster-wide name; stopping it frees the name. */
    ActorRef<?> nickToken;

    Client(Link link, int queue) {
        this.link = link;
        this.out = new Chan<>(queue);
    }

    /**
     * A line as the writers take it: its text (a WebSocket writes it as one text frame) and its
     * bytes on a TCP connection (UTF-8 and a '\n'). A broadcast makes one for its line and every
     * member's writer takes the same one: the encoding is not repeated per receiver.
     *
     * @param text  the line
     * @param bytes the line in UTF-8 with its '\n'
     */
    record Wire(String text, byte[] bytes) {
    }

    /** {@code line} as the writers take it. */
    static Wire wire(String line) {
        return new Wire(line, (line + '\n').getBytes(StandardCharsets.UTF_8));
    }

    /**
     * The writer: takes whatever is queued (up to {@link #MAX_BATCH} bytes), writes it as one
     * batch and waits again only when the channel is empty, until the hub closes the channel;
     * then ends the connection (or, at shutdown, only its write side, so the goodbye is
     * followed by a FIN or a close frame). {@code roomAgain} runs when lines were dropped for
     * this client and its writer has taken lines off the channel since.
     */
    void writeLoop(LongAdder writes, Runnable roomAgain) {
        Wire[] batch = new Wire[64];
        try {
            boolean open = true;
            while (open) {
                Wire line = out.recv();
                if (line == null) {
                    break;
                }
                int n = 0;
                int bytes = 0;
                while (true) {
                    if (n == batch.length) {
                        batch = Arrays.copyOf(batch, n * 2);
                    }
                    batch[n++] = line;
                    bytes += line.bytes().length;
                    if (bytes >= MAX_BATCH) {
                        break;
                    }
                    Recv<Wire> r = out.tryRecv();
                    if (r == null) {
                        break; // the channel is empty: write (and flush) the batch
                    }
                    if (!r.ok()) {
                        open = false;
                        break;
                    }
                    line = r.value();
                }
                // The hub sets wantsRoom after a trySend found the channel full, so lines were
                // still queued then: the first batch taken after it ends here and sees the flag.
                if (wantsRoom.get() && wantsRoom.compareAndSet(true, false)) {
                    roomAgain.run();
                }
                link.write(batch, n);
                Arrays.fill(batch, 0, n, null);
                writes.increment();
            }
            if (halfClose) {
                link.closeWrite();
            } else {
                link.end();
            }
        } catch (IOException e) {
            link.close();
        }
    }

    /**
     * The reader: reads lines and posts each to {@code hub} until the end of the stream, an
     * error or the hub stopping. With an idle limit, every line (an over-long one too) touches
     * the client's {@link IdleWatchdog}, which posts {@code Left(idle)} itself once the client
     * has sent nothing for {@code cfg.idle()}; the hub's goodbye then ends the connection, and
     * with it this read.
     */
    void readLoop(Hub hub, ChatConfig cfg) {
        Select s = new Select();
        IdleWatchdog idle = null;
        if (cfg.idle().isPositive()) {
            idle = new IdleWatchdog(cfg.idle(), () -> hub.post(new Select(), new Hub.Left(this, true)));
            idle.start();
        }
        try {
            while (true) {
                String line;
                try {
                    line = link.readLine();
                } catch (IOException e) {
                    line = null; // reset, closed by the server: the same as end of stream
                }
                if (line == null) {
                    hub.post(s, new Hub.Left(this, false));
                    return;
                }
                if (idle != null) {
                    idle.touch();
                }
                if (!hub.post(s, line == LineIn.TOO_LONG ? new Hub.TooLong(this) : new Hub.Line(this, line))) {
                    return;
                }
            }
        } finally {
            if (idle != null) {
                idle.stop();
            }
        }
    }

    @Override
    public String toString() {
        return nick != null ? nick : link.peer();
    }
}
