package io.gmp4j.examples.ports;

import io.gmp4j.GoRuntime;
import io.gmp4j.NoUncaughtExceptions;
import io.gmp4j.TestSupport;
import io.gmp4j.context.Cancelable;
import io.gmp4j.context.Context;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.*;

/**
 * The URL poller against a loopback site whose status codes the test sets: every URL is
 * polled, every poll's status reaches the monitor in order (each a response the site really
 * gave), each change of a page's status shows up as exactly that transition, failing URLs
 * back off, the periodic report lists the latest states, and cancellation ends every goroutine.
 */
@ExtendWith(NoUncaughtExceptions.class)
class UrlPollTest {
    /** Consecutive codes differ, also from the last back to the first: each step is a transition. */
    private static final int[] CODES = {200, 503, 404, 500};
    private static final int PAGES = 6;
    private static final int STEPS = 6;

    private static final UrlPoll.Config FAST = new UrlPoll.Config(2, Duration.ofMillis(2), Duration.ofMillis(10),
            Duration.ofMillis(2), Duration.ofSeconds(TestSupport.TIMEOUT_S));

    /** What the monitor recorded, per URL in order; and the log lines. Filled from goroutines. */
    private static final class Observed {
        final Map<String, List<String>> updates = new ConcurrentHashMap<>();
        final List<String> log = Collections.synchronizedList(new ArrayList<>());

        final Consumer<UrlPoll.State> onUpdate = s ->
                updates.computeIfAbsent(s.url(), u -> Collections.synchronizedList(new ArrayList<>())).add(s.status());

        List<String> of(String url) {
            List<String> l = updates.getOrDefault(url, List.of());
            synchronized (l) {
                return List.copyOf(l);
            }
        }

        String last(String url) {
            List<String> l = of(url);
            return l.isEmpty() ? null : l.getLast();
        }

        List<String> log() {
            synchronized (log) {
                return List.copyOf(log);
            }
        }
    }

    private static int code(int page, int step) {
        return CODES[(page + step) % CODES.length];
    }

    /** A URL on the port {@code holder} keeps refusing ({@link TestSupport#refusingPort}). */
    private static String deadUrl(Socket holder) {
        return "http://127.0.0.1:" + holder.getLocalPort() + "/";
    }

    private static List<String> collapse(List<String> statuses) {
        List<String> out = new ArrayList<>();
        for (String s : statuses) {
            if (out.isEmpty() || !out.getLast().equals(s)) {
                out.add(s);
            }
        }
        return out;
    }

    @ParameterizedTest(name = "procs={0}")
    @ValueSource(ints = {1, 2})
    void statusTransitionsAreReportedExactlyAsTheSiteChangesThem(int procs) throws Exception {
        List<String> paths = new ArrayList<>();
        for (int i = 0; i < PAGES; i++) {
            paths.add("/page" + i);
        }
        Observed seen = new Observed();
        try (Socket refusing = TestSupport.refusingPort();
             StatusSite site = StatusSite.start(paths);
             GoRuntime rt = GoRuntime.builder().maxProcs(procs).name("urlpoll-" + procs).build()) {
            List<String> urls = new ArrayList<>(paths.stream().map(site::url).toList());
            String dead = deadUrl(refusing);
            urls.add(dead);
            for (int i = 0; i < PAGES; i++) {
                site.setStatus(paths.get(i), code(i, 0));
            }
            TestSupport.runInGoroutine(rt, () -> {
                long before = rt.numGoroutine();
                CountDownLatch returned = new CountDownLatch(1);
                try (Cancelable c = Context.withCancel(Context.background())) {
                    rt.go(() -> {
                        try {
                            UrlPoll.run(c.ctx(), urls, FAST, seen.log::add, seen.onUpdate);
                        } finally {
                            returned.countDown();
                        }
                    });
                    for (int step = 0; step < STEPS; step++) {
                        if (step > 0) {
                            for (int i = 0; i < PAGES; i++) {
                                site.setStatus(paths.get(i), code(i, step));
                            }
                        }
                        int s = step;
                        TestSupport.awaitCondition(() -> {
                            for (int i = 0; i < PAGES; i++) {
                                if (!HttpStatus.status(code(i, s)).equals(seen.last(urls.get(i)))) {
                                    return false;
                                }
                            }
                            return true;
                        }, () -> "step " + s + ": " + seen.updates);
                    }
                    // The periodic report, after the last step was seen, lists every page's final status.
                    int from = seen.log().size();
                    TestSupport.awaitCondition(() -> {
                        List<String> log = seen.log();
                        List<String> after = log.subList(from, log.size());
                        for (int i = 0; i < PAGES; i++) {
                            if (!after.contains(" " + urls.get(i) + " " + HttpStatus.status(code(i, STEPS - 1)))) {
                                return false;
                            }
                        }
                        return after.contains("Current state:");
                    }, () -> "a status report with the final states: " + seen.log());
                    TestSupport.awaitCondition(() -> seen.of(dead).size() >= 2, () -> "two polls of " + dead);
                }                                                 // cancel()
                TestSupport.await(returned, () -> "run to return after cancel:\n" + rt.dump());
                TestSupport.awaitCondition(() -> rt.numGoroutine() == before,
                        () -> rt.numGoroutine() + " goroutines, " + before + " before:\n" + rt.dump());
            });

            for (int i = 0; i < PAGES; i++) {
                String url = urls.get(i);
                List<String> served = site.served(paths.get(i)).stream().map(HttpStatus::status).toList();
                List<String> reported = seen.of(url);
                // Each poll's status reached the monitor in order; only a poll cut off by the
                // cancellation may be missing at the end.
                assertEquals(served.subList(0, reported.size()), reported, url);
                assertTrue(served.size() - reported.size() <= 1,
                        url + ": " + served.size() + " served, " + reported.size() + " reported");
                List<String> transitions = new ArrayList<>();
                for (int step = 0; step < STEPS; step++) {
                    transitions.add(HttpStatus.status(code(i, step)));
                }
                assertEquals(transitions, collapse(reported), url + " transitions");
            }
            String refused = "Head \"" + dead + "\": connection refused";
            assertEquals(List.of(refused), collapse(seen.of(dead)), "the dead port's statuses");
            assertTrue(seen.log().contains("Error " + dead + " " + refused), "the error is logged");
        }
    }

    @Test
    void aResourceBacksOffOneErrTimeoutMorePerErrorInARowAndResetsOnSuccess() throws Exception {
        UrlPoll.Config cfg = new UrlPoll.Config(1, Duration.ofSeconds(60), Duration.ofSeconds(10),
                Duration.ofSeconds(10), Duration.ofSeconds(TestSupport.TIMEOUT_S));
        List<String> log = new ArrayList<>();
        try (Socket refusing = TestSupport.refusingPort(); StatusSite site = StatusSite.start(List.of("/up"));
             HttpHead http = new HttpHead(cfg.requestTimeout())) {
            String dead = deadUrl(refusing);
            UrlPoll.Resource down = new UrlPoll.Resource(dead);
            assertEquals(Duration.ofSeconds(60), down.backoff(cfg));
            assertEquals("Head \"" + dead + "\": connection refused", down.poll(http, log::add));
            assertEquals(1, down.errCount);
            assertEquals(Duration.ofSeconds(70), down.backoff(cfg));
            down.poll(http, log::add);
            assertEquals(Duration.ofSeconds(80), down.backoff(cfg));
            assertEquals(2, log.size(), "one log line per error: " + log);

            UrlPoll.Resource up = new UrlPoll.Resource(site.url("/up"));
            up.errCount = 5;
            assertEquals("200 OK", up.poll(http, log::add));
            assertEquals(0, up.errCount, "a success resets the count");
            assertEquals(Duration.ofSeconds(60), up.backoff(cfg));
            site.setStatus("/up", 503);
            assertEquals("503 Service Unavailable", up.poll(http, log::add));
            assertEquals(0, up.errCount, "an HTTP error status is a response, not an error");
            assertEquals("404 Not Found", new UrlPoll.Resource(site.url("/elsewhere")).poll(http, log::add));
        }
    }

    @Test
    void badUrlsAndSettingsAreRefused() {
        try (GoRuntime rt = GoRuntime.builder().maxProcs(1).name("urlpoll-bad").build()) {
            TestSupport.runInGoroutine(rt, () -> {
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> UrlPoll.run(
                        Context.background(), List.of("ftp://example.com/"), FAST, s -> { }, s -> { }));
                assertEquals("not an http or https URL with a host: ftp://example.com/", e.getMessage());
                assertThrows(IllegalArgumentException.class, () -> UrlPoll.run(
                        Context.background(), List.of("http://a b/"), FAST, s -> { }, s -> { }));
            });
        }
        assertThrows(IllegalArgumentException.class, () -> new UrlPoll.Config(0, Duration.ZERO,
                Duration.ofSeconds(1), Duration.ZERO, Duration.ofSeconds(1)));
        assertThrows(IllegalArgumentException.class, () -> new UrlPoll.Config(1, Duration.ZERO,
                Duration.ZERO, Duration.ZERO, Duration.ofSeconds(1)));
    }
}
