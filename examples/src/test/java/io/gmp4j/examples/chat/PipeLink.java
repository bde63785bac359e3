package io.gmp4j.examples.chat;

import io.gmp4j.Go;
import io.gmp4j.chan.Chan;
import io.gmp4j.chan.Select;
import io.gmp4j.time.Time;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A chat {@link Link} whose peer is the test itself, over channels instead of a socket: made
 * in a synctest bubble, every wait on it is durable, so the bubble's clock drives the hub, the
 * client's goroutines and its idle watchdog, and a test can say at which bubble time each line
 * reached the peer. The peer's side: {@link #say}, {@link #hangUp}, {@link #listen},
 * {@link #heardToEnd}, {@link #endedBothWays}.
 *
 * <p>TCP's semantics: {@link #closeWrite} is a FIN (the peer reads what was written, then the
 * end; reads go on), {@link #end} and {@link #close} close both ways (a parked read fails).
 * {@link #toPeer} is closed only by the writer's own {@link #closeWrite} and {@link #end}, after
 * its last write, so no send can meet a closed channel; {@link #close}, callable by anyone,
 * only closes {@link #closed}.
 */
final class PipeLink implements Link {
    /** A line of the server and the bubble time it reached the peer, from the bubble's start. */
    record Heard(Duration at, String line) {
        @Override
        public String toString() {
            return at + " " + line;
        }
    }

    private final Instant start;
    private final String name;
    /** The peer's lines to the server; closed: the peer's end of stream. */
    private final Chan<String> fromPeer = new Chan<>(16);
    /** What the writer wrote; closed by the writer's FIN or end. */
    private final Chan<String> toPeer = new Chan<>(1024);
    /** Closed by the first end or close: a parked read or write fails. */
    private final Chan<Void> closed = new Chan<>();
    /** The listener's record, sent once the server's writes ended. */
    private final Chan<List<Heard>> heard = new Chan<>(1);
    private final AtomicBoolean writeEnded = new AtomicBoolean();
    private final AtomicBoolean bothEnded = new AtomicBoolean();
    /** The reader's select (the reader is one goroutine). */
    private final Select reads = new Select();

    /** A link made at bubble time {@code start} (what {@link Heard#at} counts from). */
    PipeLink(String name, Instant start) {
        this.name = name;
        this.start = start;
    }

    // ---- the server's side (Link)

    @Override
    public String readLine() throws IOException {
        reads.reset();
        int line = reads.recv(fromPeer);
        reads.recv(closed);
        if (reads.select() != line) {
            throw new IOException("read " + name + ": use of closed connection");
        }
        return reads.ok() ? reads.value() : null;
    }

    @Override
    public void write(Client.Wire[] lines, int n) throws IOException {
        Select s = new Select();
        for (int i = 0; i < n; i++) {
            s.reset();
            int sent = s.send(toPeer, lines[i].text());
            s.recv(closed);
            if (s.select() != sent) {
                throw new IOException("write " + name + ": use of closed connection");
            }
        }
    }

    @Override
    public void closeWrite() {
        if (writeEnded.compareAndSet(false, true)) {
            toPeer.close();
        }
    }

    @Override
    public void end() {
        closeWrite();
        close();
    }

    @Override
    public void close() {
        if (bothEnded.compareAndSet(false, true)) {
            closed.close();
        }
    }

    @Override
    public String peer() {
        return name;
    }

    // ---- the peer's side (the test)

    /** Sends {@code line} to the server (waits while 16 lines are unread). */
    void say(String line) {
        fromPeer.send(line);
    }

    /** The peer's end of stream: the server's read returns null. */
    void hangUp() {
        fromPeer.close();
    }

    /**
     * Starts the peer's listener: a goroutine that takes every line the server writes, noting
     * when it came, until the server's writes end ({@link #heardToEnd}).
     */
    void listen() {
        Go.go(() -> {
            List<Heard> all = new ArrayList<>();
            for (String l; (l = toPeer.recv()) != null; ) {
                all.add(new Heard(Time.since(start), l));
            }
            heard.send(all);
        });
    }

    /** Waits for the end of the server's writes: every line it wrote, and when each came. */
    List<Heard> heardToEnd() {
        return heard.recv();
    }

    /** True once the server closed the connection both ways ({@link #end} or {@link #close}). */
    boolean endedBothWays() {
        return closed.tryRecv() != null;
    }
}
