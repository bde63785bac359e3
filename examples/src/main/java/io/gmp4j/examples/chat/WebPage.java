package io.gmp4j.examples.chat;

import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.HttpServerRequest;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;

/**
 * The chat's browser page: three files ({@code index.html}, {@code chat.css}, {@code chat.js})
 * read once from the classpath ({@code io/gmp4j/examples/chat/web/}) and served from memory by
 * {@link #handle}. Only those three names are served (no path is ever mapped to a file, so
 * nothing else can be reached); any other path is a 404 and any method but GET or HEAD a 405.
 */
final class WebPage {
    private static final String DIR = "web/";

    /** A file as it is served: its type and bytes. */
    private record File(String type, Buffer body) {
    }

    private final Map<String, File> files;

    private WebPage(Map<String, File> files) {
        this.files = files;
    }

    /** Reads the page's files; fails if one is missing from the classpath (a broken build). */
    static WebPage load() {
        return new WebPage(Map.of(
                "/", file("index.html", "text/html; charset=utf-8"),
                "/index.html", file("index.html", "text/html; charset=utf-8"),
                "/chat.css", file("chat.css", "text/css; charset=utf-8"),
                "/chat.js", file("chat.js", "text/javascript; charset=utf-8")));
    }

    private static File file(String name, String type) {
        try (InputStream in = WebPage.class.getResourceAsStream(DIR + name)) {
            if (in == null) {
                throw new IllegalStateException("the chat page's " + DIR + name + " is not on the classpath");
            }
            return new File(type, Buffer.buffer(in.readAllBytes()));
        } catch (IOException e) {
            throw new UncheckedIOException("reading the chat page's " + name, e);
        }
    }

    /** Answers an HTTP request for the page (on a Vert.x event loop). */
    void handle(HttpServerRequest req) {
        if (req.method() != HttpMethod.GET && req.method() != HttpMethod.HEAD) {
            req.response().setStatusCode(405).putHeader("Allow", "GET, HEAD").end();
            return;
        }
        File f = files.get(req.path());
        if (f == null) {
            req.response().setStatusCode(404).putHeader("Content-Type", "text/plain; charset=utf-8")
                    .end("not found: the chat page is at /\n");
            return;
        }
        req.response().putHeader("Content-Type", f.type()).putHeader("Cache-Control", "no-cache");
        if (req.method() == HttpMethod.HEAD) {
            req.response().putHeader("Content-Length", Integer.toString(f.body().length())).end();
        } else {
            req.response().end(f.body());
        }
    }
}
