package io.gmp4j.examples.ports;

import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.channels.UnresolvedAddressException;
import java.time.Duration;

/**
 * Go's {@code http.Head(url)} on the JDK's {@link HttpClient}: a HEAD request that follows
 * redirects (but not from https to http) and answers Go's {@code resp.Status}. It blocks the
 * calling goroutine, which parks until the client's own threads complete the exchange, so the
 * goroutine's P runs other goroutines meanwhile. Errors read like Go's: {@code Head "url":
 * connection refused}.
 */
final class HttpHead implements AutoCloseable {
    private final HttpClient client;
    private final Duration timeout;

    /** A client whose connects and requests each give up after {@code timeout}. */
    HttpHead(Duration timeout) {
        this.timeout = timeout;
        this.client = HttpClient.newBuilder()
                .connectTimeout(timeout)
                .followRedirects(HttpClient.Redirect.NORMAL)
                .version(HttpClient.Version.HTTP_1_1)             // plain HTTP/1.1, as Go's client speaks to http:// URLs
                .build();
    }

    /**
     * Sends HEAD to {@code url}; returns the status, e.g. {@code "200 OK"}.
     *
     * @throws IOException if no response came (refused, timed out, unknown host)
     */
    String head(String url) throws IOException {
        HttpRequest req = HttpRequest.newBuilder(URI.create(url))
                .method("HEAD", HttpRequest.BodyPublishers.noBody())
                .timeout(timeout)
                .build();
        try {
            return HttpStatus.status(client.send(req, HttpResponse.BodyHandlers.discarding()).statusCode());
        } catch (IOException e) {
            throw new IOException("Head \"" + url + "\": " + describe(e), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("Head \"" + url + "\": interrupted", e);
        }
    }

    /** The first message in the cause chain; the JDK leaves some connect failures without one. */
    private static String describe(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t.getMessage() != null) {
                return t.getMessage();
            }
        }
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof UnresolvedAddressException) {
                return "no such host";
            }
        }
        return e instanceof ConnectException ? "connection refused" : e.getClass().getSimpleName();
    }

    /** Closes the client's connections and threads. */
    @Override
    public void close() {
        client.close();
    }
}
