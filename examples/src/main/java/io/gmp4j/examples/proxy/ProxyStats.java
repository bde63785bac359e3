package io.gmp4j.examples.proxy;

/**
 * A snapshot of a {@link ProxyServer}'s counters ({@link ProxyServer#stats}), and the periodic
 * stats line. The byte counts include the connections still open (they count as bytes are
 * forwarded), so consecutive snapshots show the throughput.
 *
 * @param active       client connections open now
 * @param total        client connections accepted since the start
 * @param bytesUp      bytes forwarded from clients to upstreams
 * @param bytesDown    bytes forwarded from upstreams to clients
 * @param failovers    dials that failed (refused, timed out) and moved on to the next upstream
 * @param errors       connections that ended in an error: no upstream reachable, reset, broken pipe
 * @param idleTimeouts connections closed because no byte moved either way for the idle timeout
 */
public record ProxyStats(long active, long total, long bytesUp, long bytesDown, long failovers, long errors,
                         long idleTimeouts) {
    /** The stats line: {@code stats: active=3 total=120 up=12345 down=67890 failovers=1 errors=0 idle=2}. */
    public String format() {
        return "stats: active=" + active + " total=" + total + " up=" + bytesUp + " down=" + bytesDown
                + " failovers=" + failovers + " errors=" + errors + " idle=" + idleTimeouts;
    }
}
