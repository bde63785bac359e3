package io.gmp4j.examples.ports;

import io.gmp4j.Go;
import io.gmp4j.chan.Chan;
import io.gmp4j.chan.Select;
import io.gmp4j.context.Context;
import io.gmp4j.time.Ticker;
import io.gmp4j.time.Time;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * What {@code ./gmp4j run urlpoll} polls when given no URLs: a {@link StatusSite} whose
 * {@code /flaky} page changes its status at random and whose {@code /sometimes} page comes and
 * goes, a {@code /steady} page, and a port on 127.0.0.1 where nothing listens (errors, and the
 * poller's back-off). A goroutine changes the statuses every period until the context is done
 * or the site is closed.
 */
final class LocalDemoSite implements AutoCloseable {
    private static final int[] FLAKY = {200, 200, 500, 503};

    private final StatusSite site;
    /** Holds the dead URL's port: bound, never listening. */
    private final Socket refusing;
    private final String deadUrl;
    private final Chan<Void> quit = new Chan<>();

    private LocalDemoSite(StatusSite site, Socket refusing) {
        this.site = site;
        this.refusing = refusing;
        this.deadUrl = "http://127.0.0.1:" + refusing.getLocalPort() + "/";
    }

    /** Starts the site and the goroutine that changes its statuses every {@code period} (1 s if zero). */
    static LocalDemoSite start(Context ctx, Duration period) throws IOException {
        // Bound and never listening: connects are refused, and no other bind takes the port while the demo runs.
        Socket refusing = new Socket();
        refusing.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
        StatusSite site;
        try {
            site = StatusSite.start(List.of("/steady", "/flaky", "/sometimes"));
        } catch (IOException | RuntimeException e) {
            refusing.close();
            throw e;
        }
        LocalDemoSite demo = new LocalDemoSite(site, refusing);
        Duration every = period.isPositive() ? period : Duration.ofSeconds(1);
        Go.go(() -> demo.changeStatuses(ctx, every));
        return demo;
    }

    private void changeStatuses(Context ctx, Duration every) {
        Ticker ticker = Time.newTicker(every);
        Select s = new Select();
        boolean gone = false;
        try {
            while (true) {
                s.reset();
                int tick = s.recv(ticker.c());
                s.recv(ctx.done());
                s.recv(quit);
                if (s.select() != tick) {
                    return;
                }
                ThreadLocalRandom rnd = ThreadLocalRandom.current();
                site.setStatus("/flaky", FLAKY[rnd.nextInt(FLAKY.length)]);
                if (rnd.nextInt(3) == 0) {
                    gone = !gone;
                    site.setStatus("/sometimes", gone ? 404 : 200);
                }
            }
        } finally {
            ticker.stop();
        }
    }

    /** The URLs to poll: the site's three pages and the dead port. */
    List<String> urls() {
        return List.of(site.url("/steady"), site.url("/flaky"), site.url("/sometimes"), deadUrl);
    }

    /** Stops the status changes and the site. */
    @Override
    public void close() {
        quit.close();
        site.close();
        try {
            refusing.close();
        } catch (IOException ignored) {
            // closing a socket that never connected reports nothing to act on
        }
    }
}
