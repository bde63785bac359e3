package io.gmp4j.runtime;

/**
 * A network poller that runs on a thread of its own, attached to a runtime after it started:
 * an M without a P, like sysmon (the netpoll module's Netty event loop). Unlike Go's
 * netpoller, the Ms never poll it; it blocks in its own loop and hands each turn's
 * readied goroutines to {@link Scheduler#injectglist} as one batch (see
 * {@link Scheduler#batchExecutesOf}). The runtime owns it: {@code checkdead} asks it for
 * waiters, the stats name it, and {@link Scheduler#close} shuts it down.
 */
public interface NetpollThread {
    /** Go's netpollAnyWaiters: true while some goroutine (or thread) waits on it for I/O. */
    boolean hasWaiters();

    /** One word or a few for the stats: the transport and what it serves, e.g. {@code "epoll conns=3 waiters=1"}. */
    String describe();

    /** Stops the poller and its thread, waiting at most {@code timeoutMillis}. Idempotent. */
    void shutdown(long timeoutMillis);
}
