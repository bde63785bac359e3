package io.gmp4j.examples.ports;

/**
 * Go's {@code resp.Status} for the JDK's HTTP client, which gives only the code: the code and
 * its standard reason phrase ({@code "503 Service Unavailable"}), as Go's
 * {@code http.StatusText} names them (RFC 9110); an unregistered code stands alone.
 */
final class HttpStatus {
    private HttpStatus() {
    }

    /** {@code "200 OK"}, {@code "404 Not Found"}, ..., or just {@code "599"}. */
    static String status(int code) {
        String text = text(code);
        return text.isEmpty() ? Integer.toString(code) : code + " " + text;
    }

    /** Go's {@code http.StatusText(code)}: the reason phrase, or "" for an unknown code. */
    static String text(int code) {
        return switch (code) {
            case 100 -> "Continue";
            case 101 -> "Switching Protocols";
            case 200 -> "OK";
            case 201 -> "Created";
            case 202 -> "Accepted";
            case 203 -> "Non-Authoritative Information";
            case 204 -> "No Content";
            case 205 -> "Reset Content";
            case 206 -> "Partial Content";
            case 300 -> "Multiple Choices";
            case 301 -> "Moved Permanently";
            case 302 -> "Found";
            case 303 -> "See Other";
            case 304 -> "Not Modified";
            case 307 -> "Temporary Redirect";
            case 308 -> "Permanent Redirect";
            case 400 -> "Bad Request";
            case 401 -> "Unauthorized";
            case 403 -> "Forbidden";
            case 404 -> "Not Found";
            case 405 -> "Method Not Allowed";
            case 406 -> "Not Acceptable";
            case 408 -> "Request Timeout";
            case 409 -> "Conflict";
            case 410 -> "Gone";
            case 418 -> "I'm a teapot";
            case 429 -> "Too Many Requests";
            case 500 -> "Internal Server Error";
            case 501 -> "Not Implemented";
            case 502 -> "Bad Gateway";
            case 503 -> "Service Unavailable";
            case 504 -> "Gateway Timeout";
            default -> "";
        };
    }
}
