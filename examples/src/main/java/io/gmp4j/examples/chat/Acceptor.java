package io.gmp4j.examples.chat;

import io.gmp4j.GoRuntime;
import io.gmp4j.chan.Chan;
import io.gmp4j.chan.Select;
import io.gmp4j.examples.AcceptBackoff;
import io.gmp4j.net.Conn;
import io.gmp4j.net.Listener;
import io.gmp4j.net.NetClosedException;
import java.io.IOException;
import java.time.Duration;

/**
 * A {@link ChatServer}'s TCP connections coming in: the acceptor goroutine, which starts a
 * writer ({@link Client#writeLoop}) and a reader ({@link Client#readLoop}) per connection
 * ({@link #serve}, which the WebSocket side uses too). An accept that fails while the listener is open (out of
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
            Client c = new Client(new TcpLink(conn, cfg.maxLine()), cfg.queue());
            if (!serve(hub, rt, c, s)) {
                return;
            }
            rt.go(() -> {
                try {
                    c.readLoop(hub, cfg);
                } finally {
                    hub.conns.done();
                }
            });
        }
    }

    /**
     * Serves a new connection, TCP or WebSocket: counts its two goroutines in
     * {@link Hub#conns}, starts its writer and posts it to the hub. True when the hub took it:
     * the caller then runs {@link Client#readLoop} (in a new goroutine or in its own) and calls
     * {@code hub.conns.done()} after it. False when the server is stopping: the connection is
     * closed, the reader's count given back, and the caller starts no reader.
     */
    static boolean serve(Hub hub, GoRuntime rt, Client c, Select s) {
        hub.conns.add(2);
        rt.go(() -> {
            try {
                c.writeLoop(hub.writes, () -> hub.post(new Select(), new Hub.RoomAgain(c)));
            } finally {
                hub.conns.done();
            }
        });
        if (!hub.post(s, new Hub.Joined(c))) {
            c.link.close();
            c.out.close();
            hub.conns.done(); // the reader that never starts
            return false;
        }
        return true;
    }
}
