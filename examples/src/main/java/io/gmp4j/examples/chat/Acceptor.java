package io.gmp4j.examples.chat;

import io.gmp4j.GoRuntime;
import io.gmp4j.chan.Chan;
import io.gmp4j.chan.Select;
import io.gmp4j.examples.AcceptBackoff;
import io.gmp4j.net.Conn;
import io.gmp4j.net.DeadlineExceededException;
import io.gmp4j.net.Listener;
import io.gmp4j.net.NetClosedException;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;

/**
 * A {@link ChatServer}'s connections coming in: the acceptor goroutine, which starts a writer
 * ({@link Client#writeLoop}) and a reader per connection, and the readers, which post each line
 * to the hub and never write. An accept that fails while the listener is open (out of
 * descriptors) is logged to stderr and tried again after a back-off ({@link AcceptBackoff}).
 */
final class Acceptor {
    private final Hub hub;
    private final GoRuntime rt;
    private final Listener listener;
    private final ChatConfig cfg;
    private final Chan<Void> quit;

    Acceptor(Hub hub, GoRuntime rt, Listener listener, ChatConfig cfg, Chan<Void> quit) {
        this.hub = hub;
        this.rt = rt;
        this.listener = listener;
        this.cfg = cfg;
        this.quit = quit;
    }

    /** Accepts until the listener is closed; each connection is posted to the hub as {@code Joined}. */
    void acceptLoop() {
        Select s = new Select();
        AcceptBackoff backoff = new AcceptBackoff(quit);
        while (true) {
            Conn conn;
            try {
                conn = listener.accept();
            } catch (NetClosedException e) {
                return; // closed: the only way out
            } catch (IOException e) { // out of descriptors (EMFILE): wait for some to close, as Go's servers do
                Duration d = backoff.next();
                System.err.println(AcceptBackoff.line("chat", e, d));
                if (!backoff.pause(d)) {
                    return; // stopping
                }
                continue;
            }
            backoff.reset();
            Client c = new Client(conn, cfg.queue());
            hub.conns.add(2);
            rt.go(() -> {
                try {
                    c.writeLoop(hub.writes, () -> hub.post(new Select(), new Hub.RoomAgain(c)));
                } finally {
                    hub.conns.done();
                }
            });
            if (!hub.post(s, new Hub.Joined(c))) {
                conn.close();
                c.out.close();
                hub.conns.done(); // the reader that never starts
                return;
            }
            rt.go(() -> reader(c));
        }
    }

    /** Reads lines ({@link LineIn}, the read deadline as the idle timeout) and posts each to the hub. */
    private void reader(Client c) {
        Select s = new Select();
        LineIn in = new LineIn(c.conn, cfg.maxLine());
        boolean idleLimit = !cfg.idle().isZero() && !cfg.idle().isNegative();
        try {
            while (true) {
                if (idleLimit) {
                    c.conn.setReadDeadline(Instant.now().plus(cfg.idle()));
                }
                String line;
                try {
                    line = in.readLine();
                } catch (DeadlineExceededException e) {
                    hub.post(s, new Hub.Left(c, true));
                    return;
                } catch (IOException e) {
                    line = null; // reset, closed by the server: the same as end of stream
                }
                if (line == null) {
                    hub.post(s, new Hub.Left(c, false));
                    return;
                }
                if (!hub.post(s, line == LineIn.TOO_LONG ? new Hub.TooLong(c) : new Hub.Line(c, line))) {
                    return;
                }
            }
        } finally {
            hub.conns.done();
        }
    }
}
