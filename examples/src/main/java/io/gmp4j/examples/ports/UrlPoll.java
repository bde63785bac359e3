package io.gmp4j.examples.ports;

import io.gmp4j.Go;
import io.gmp4j.chan.Chan;
import io.gmp4j.chan.RecvChan;
import io.gmp4j.chan.Select;
import io.gmp4j.chan.SendChan;
import io.gmp4j.context.Cancelable;
import io.gmp4j.context.Context;
import io.gmp4j.sync.WaitGroup;
import io.gmp4j.time.Ticker;
import io.gmp4j.time.Time;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Go's codewalk "Share Memory By Communicating" ({@code doc/codewalk/urlpoll.go}), type for
 * type: {@code Poller} goroutines take {@code Resource}s from {@code pending}, poll them with
 * HTTP HEAD and hand them on to {@code complete}; {@code main} starts a goroutine per completed
 * resource that sleeps (longer after each error in a row) and puts it back on {@code pending};
 * a {@code StateMonitor} goroutine owns the map of last-known statuses, fed over a channel, and
 * logs it on every tick. No resource is ever shared: whoever holds it owns it.
 *
 * <p>Added to Go's program, which runs until killed: a context whose cancellation ends every
 * goroutine ({@link #run} returns when they all have), the intervals as a {@link Config}, and a
 * hook that sees each status update as the monitor records it.
 *
 * <p>HTTP goes through the JDK's {@link java.net.http.HttpClient} (see {@link HttpHead}): the
 * URLs are anyone's, so https and redirects must work as Go's {@code http.Head} does them, and
 * a blocking JDK call in a goroutine only parks that goroutine.
 */
public final class UrlPoll {
    /**
     * Go's constants.
     *
     * @param numPollers number of Poller goroutines to launch
     * @param pollInterval how often to poll each URL
     * @param statusInterval how often to log the status
     * @param errTimeout back-off added per error in a row
     * @param requestTimeout how long one HEAD request may take (Go's program waits forever)
     */
    public record Config(int numPollers, Duration pollInterval, Duration statusInterval, Duration errTimeout,
                         Duration requestTimeout) {
        /** Go's values: 2 pollers, poll every 60 s, status every 10 s, 10 s back-off per error. */
        public static final Config GO = new Config(2, Duration.ofSeconds(60), Duration.ofSeconds(10),
                Duration.ofSeconds(10), Duration.ofSeconds(10));

        /**
         * Checks the values.
         *
         * @throws IllegalArgumentException naming the bad one
         */
        public Config {
            if (numPollers < 1) {
                throw new IllegalArgumentException("numPollers: at least 1, got " + numPollers);
            }
            if (pollInterval.isNegative() || errTimeout.isNegative()) {
                throw new IllegalArgumentException("pollInterval and errTimeout must not be negative");
            }
            if (!statusInterval.isPositive() || !requestTimeout.isPositive()) {
                throw new IllegalArgumentException("statusInterval and requestTimeout must be positive");
            }
        }
    }

    /** {@code type State struct { url, status string }}: the last-known state of a URL. */
    public record State(String url, String status) {
    }

    /** {@code type Resource struct { url string; errCount int }}: a URL to poll, owned by one goroutine at a time. */
    static final class Resource {
        final String url;
        int errCount;

        Resource(String url) {
            this.url = url;
        }

        /** {@code func (r *Resource) Poll() string}: HEADs the URL; the status, or the error. */
        String poll(HttpHead http, Consumer<String> log) {
            try {
                String status = http.head(url);                   // resp, err := http.Head(r.url)
                errCount = 0;
                return status;                                    // return resp.Status
            } catch (IOException err) {
                log.accept("Error " + url + " " + err.getMessage());
                errCount++;
                return err.getMessage();                          // return err.Error()
            }
        }

        /** The sleep before the next poll: {@code pollInterval + errTimeout*errCount}. */
        Duration backoff(Config cfg) {
            return cfg.pollInterval().plus(cfg.errTimeout().multipliedBy(errCount));
        }

        /** {@code func (r *Resource) Sleep(done chan<- *Resource)}: sleeps, then sends r to done. */
        void sleep(Context ctx, Config cfg, SendChan<Resource> done) {
            Select s = new Select();
            s.timeout(backoff(cfg));                              // time.Sleep(pollInterval + errTimeout*errCount)
            int quit = s.recv(ctx.done());
            if (s.select() != quit) {
                send(ctx, done, this);                            // done <- r
            }
        }
    }

    private UrlPoll() {
    }

    /**
     * {@code func StateMonitor(updateInterval) chan<- State}: starts the goroutine that owns the
     * URL-to-status map; it records what arrives on the returned channel and logs the map every
     * {@code updateInterval}. {@code onUpdate} sees each update as it is recorded.
     */
    static SendChan<State> stateMonitor(Context ctx, WaitGroup wg, Duration updateInterval, Consumer<String> log,
                                        Consumer<State> onUpdate) {
        Chan<State> updates = new Chan<>();                       // updates := make(chan State)
        Map<String, String> urlStatus = new TreeMap<>();          // urlStatus := make(map[string]string)
        Ticker ticker = Time.newTicker(updateInterval);           // ticker := time.NewTicker(updateInterval)
        wg.go(() -> {                                             // go func() {
            Select s = new Select();
            while (true) {                                        // for { select {
                s.reset();
                int tick = s.recv(ticker.c());                    // case <-ticker.C:
                int update = s.recv(updates);                     // case s := <-updates:
                s.recv(ctx.done());
                int fired = s.select();
                if (fired == tick) {
                    logState(urlStatus, log);
                } else if (fired == update) {
                    State st = s.value();
                    urlStatus.put(st.url(), st.status());         // urlStatus[s.url] = s.status
                    onUpdate.accept(st);
                } else {
                    ticker.stop();
                    return;
                }
            }
        });
        return updates;
    }

    /** {@code func logState(s map[string]string)}: the status of every URL (sorted, not Go's random order). */
    static void logState(Map<String, String> s, Consumer<String> log) {
        log.accept("Current state:");
        s.forEach((url, status) -> log.accept(" " + url + " " + status));
    }

    /**
     * {@code func Poller(in <-chan *Resource, out chan<- *Resource, status chan<- State)}: polls
     * each resource it receives, reports the result and passes the resource on.
     */
    static void poller(Context ctx, RecvChan<Resource> in, SendChan<Resource> out, SendChan<State> status,
                       HttpHead http, Consumer<String> log) {
        for (Resource r; (r = recv(ctx, in)) != null; ) {         // for r := range in {
            String s = r.poll(http, log);                         // s := r.Poll()
            if (!send(ctx, status, new State(r.url, s))           // status <- State{r.url, s}
                    || !send(ctx, out, r)) {                      // out <- r
                return;
            }
        }
    }

    /**
     * Go's {@code main}: polls {@code urls} until {@code ctx} is done, then returns once every
     * goroutine it started has returned. Must run in a goroutine.
     *
     * @param log Go's {@code log.Println}: receives the status reports and poll errors
     * @param onUpdate sees every status update the monitor records, from the monitor's goroutine
     * @throws IllegalArgumentException if a URL is not an absolute http or https URL
     */
    public static void run(Context ctx, List<String> urls, Config cfg, Consumer<String> log, Consumer<State> onUpdate) {
        urls.forEach(UrlPoll::checkUrl);
        Objects.requireNonNull(log, "log");
        Objects.requireNonNull(onUpdate, "onUpdate");
        WaitGroup wg = new WaitGroup();
        try (HttpHead http = new HttpHead(cfg.requestTimeout())) {
            Chan<Resource> pending = new Chan<>();                // pending, complete := make(chan *Resource), ...
            Chan<Resource> complete = new Chan<>();
            SendChan<State> status = stateMonitor(ctx, wg, cfg.statusInterval(), log, onUpdate);
            for (int i = 0; i < cfg.numPollers(); i++) {
                wg.go(() -> poller(ctx, pending, complete, status, http, log)); // go Poller(pending, complete, status)
            }
            wg.go(() -> {                                         // go func() {
                for (String url : urls) {                         //   for _, url := range urls {
                    if (!send(ctx, pending, new Resource(url))) { //     pending <- &Resource{url: url}
                        return;
                    }
                }
            });
            for (Resource r; (r = recv(ctx, complete)) != null; ) { // for r := range complete {
                Resource done = r;
                wg.go(() -> done.sleep(ctx, cfg, pending));       //   go r.Sleep(pending)
            }
            wg.await();                                           // (not in Go) every goroutine has returned
        }
    }

    /** {@code ch <- v}, unless {@code ctx} is done first: then false. */
    private static <T> boolean send(Context ctx, SendChan<T> ch, T v) {
        Select s = new Select();
        int sent = s.send(ch, v);
        s.recv(ctx.done());
        return s.select() == sent;
    }

    /** {@code <-ch}, unless {@code ctx} is done first: then null. */
    private static <T> T recv(Context ctx, RecvChan<T> ch) {
        Select s = new Select();
        int got = s.recv(ch);
        s.recv(ctx.done());
        return s.select() == got ? s.value() : null;
    }

    private static void checkUrl(String url) {
        URI u;
        try {
            u = URI.create(url);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("not a URL: " + url + " (" + e.getMessage() + ")");
        }
        if (!("http".equals(u.getScheme()) || "https".equals(u.getScheme())) || u.getHost() == null) {
            throw new IllegalArgumentException("not an http or https URL with a host: " + url);
        }
    }

    /** Go's {@code log.Println} on standard output: {@code 2009/11/10 23:00:00 line}. */
    static void goLog(String line) {
        System.out.println(LocalDateTime.now().format(LOG_TIME) + line);
    }

    private static final DateTimeFormatter LOG_TIME = DateTimeFormatter.ofPattern("yyyy/MM/dd HH:mm:ss ");

    /**
     * {@code ./gmp4j run urlpoll [flags] [url...]}: polls the URLs (with none, a local site whose
     * pages change their status, and a port where nothing listens) until Ctrl-C or {@code -for}.
     */
    public static void main(String[] args) {
        Flags flags = new Flags("urlpoll");
        Supplier<Integer> pollers = flags.intFlag("pollers", Config.GO.numPollers(), "number of Poller goroutines");
        Supplier<Duration> poll = flags.durationFlag("poll", Config.GO.pollInterval(), "how often to poll each URL");
        Supplier<Duration> status = flags.durationFlag("status", Config.GO.statusInterval(), "how often to log the status");
        Supplier<Duration> errTimeout = flags.durationFlag("errtimeout", Config.GO.errTimeout(), "back-off per error in a row");
        Supplier<Duration> timeout = flags.durationFlag("timeout", Config.GO.requestTimeout(), "timeout of one HEAD request");
        Supplier<Duration> runFor = flags.durationFlag("for", Duration.ZERO, "stop after this long (0: run until Ctrl-C)");
        flags.parseOrExit(args);
        Config cfg = null;
        try {
            cfg = new Config(pollers.get(), poll.get(), status.get(), errTimeout.get(), timeout.get());
            flags.args().forEach(UrlPoll::checkUrl);
        } catch (IllegalArgumentException e) {
            flags.exitWithUsage(e.getMessage());
        }
        Config config = cfg;
        Go.main(() -> {
            try (Cancelable c = runFor.get().isPositive()
                    ? Context.withTimeout(Context.background(), runFor.get())
                    : Context.withCancel(Context.background());
                 LocalDemoSite site = flags.args().isEmpty() ? LocalDemoSite.start(c.ctx(), config.pollInterval()) : null) {
                List<String> urls = site != null ? site.urls() : flags.args();
                System.out.printf("polling %d URLs with %d pollers every %s (status every %s)%n", urls.size(),
                        config.numPollers(), Flags.format(config.pollInterval()), Flags.format(config.statusInterval()));
                if (site != null) {
                    System.out.println("no URLs given: polling a local site whose pages change their status,"
                            + " and a port where nothing listens");
                }
                run(c.ctx(), urls, config, UrlPoll::goLog, s -> { });
            } catch (IOException e) {
                System.err.println("urlpoll: cannot start the local site: " + e.getMessage());
            }
        });
    }
}
