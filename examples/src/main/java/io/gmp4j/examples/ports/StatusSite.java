package io.gmp4j.examples.ports;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A small web site on 127.0.0.1 for the URL poller to poll: each path answers with the status
 * code its owner last set (200 at first, 404 for a path it does not serve), and every answer is
 * recorded per path, in order. The URL poller's demo and its tests run against it. Runs on the
 * JDK's {@code com.sun.net.httpserver}, answering on its one dispatcher thread.
 */
public final class StatusSite implements AutoCloseable {
    private final HttpServer server;
    private final Map<String, Integer> status = new ConcurrentHashMap<>();
    private final Map<String, List<Integer>> served = new ConcurrentHashMap<>();

    private StatusSite(HttpServer server, List<String> paths) {
        this.server = server;
        for (String p : paths) {
            status.put(p, 200);
            served.put(p, new ArrayList<>());
        }
        server.createContext("/", this::answer);
    }

    /**
     * Starts a site on a free port of 127.0.0.1 serving {@code paths} (each starting with
     * {@code /}), all answering 200 OK.
     *
     * @throws IllegalArgumentException if a path does not start with {@code /}
     */
    public static StatusSite start(List<String> paths) throws IOException {
        for (String p : paths) {
            if (!p.startsWith("/")) {
                throw new IllegalArgumentException("a path starts with '/': " + p);
            }
        }
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        StatusSite site = new StatusSite(server, paths);
        server.start();
        return site;
    }

    /** The URL of {@code path} on this site: {@code http://127.0.0.1:port/path}. */
    public String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    /**
     * Makes {@code path} answer {@code code} from now on.
     *
     * @throws IllegalArgumentException if the site does not serve path or code is not 100-599
     */
    public void setStatus(String path, int code) {
        if (code < 100 || code > 599) {
            throw new IllegalArgumentException("not an HTTP status code: " + code);
        }
        if (status.replace(path, code) == null) {
            throw new IllegalArgumentException("not served here: " + path);
        }
    }

    /** The status codes {@code path} answered so far, in order. */
    public List<Integer> served(String path) {
        List<Integer> log = served.get(path);
        if (log == null) {
            throw new IllegalArgumentException("not served here: " + path);
        }
        synchronized (log) {
            return List.copyOf(log);
        }
    }

    private void answer(HttpExchange ex) throws IOException {
        try (ex) {
            String path = ex.getRequestURI().getPath();
            List<Integer> log = served.get(path);
            int code = 404;
            if (log != null) {
                synchronized (log) {
                    code = status.get(path);
                    log.add(code);
                }
            }
            ex.sendResponseHeaders(code, -1);                     // no body: the poller sends HEAD
        }
    }

    /** Stops answering and closes the listening socket. */
    @Override
    public void close() {
        server.stop(0);
    }
}
