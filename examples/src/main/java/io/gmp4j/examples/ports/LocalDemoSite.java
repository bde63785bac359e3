package io.gmp4j.examples.ports;

import io.gmp4j.Go;
import io.gmp4j.chan.Chan;
import io.gmp4j.chan.Select;
import io.gmp4j.context.Context;
import io.gmp4j.time.Ticker;
import io.gmp4j.time.Time;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
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
    private final String deadUrl;
    private final Chan<Void> quit = new Chan<>();

    private LocalDemoSite(StatusSite site, String deadUrl) {
        this.site = site;
        this.deadUrl = deadUrl;
    }

    /** Starts the site and the goroutine that changes its statuses every {@code period} (1 s if zero). */
    static LocalDemoSite start(Context ctx, Duration period) throws IOException {
        int deadPort;
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            deadPort = s.getLocalPort();                         // free now, and nobody listens once closed
        }
        LocalDemoSite demo = new LocalDemoSite(StatusSite.start(List.of("/steady", "/flaky", "/sometimes")),
                "http://127.0.0.1:" + deadPort + "/");
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
    }
}
