package io.gmp4j.bench.net;

/**
 * The load client's accounting found a server at fault (a wrong byte, a lost or duplicated
 * line, a connection dropped mid-run) or the run could not finish in time.
 */
public final class LoadFailure extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** A failure with its explanation. */
    public LoadFailure(String message) {
        super(message);
    }
}
