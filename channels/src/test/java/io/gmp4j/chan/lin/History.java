package io.gmp4j.chan.lin;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A concurrent history of operations on one channel: each operation with its invocation and
 * response tickets from one global counter, so that "A responded before B was invoked" is
 * exactly {@code a.resp < b.inv} (real-time order, as linearizability defines it).
 */
final class History {
    /** The channel operations the checker knows. */
    enum Kind { SEND, RECV, TRY_SEND, TRY_RECV, CLOSE }

    /** Results, as strings to keep histories readable: see {@link ChanModel}. */
    static final String OK = "ok";
    static final String PANIC = "panic";
    static final String CLOSED = "closed";
    static final String FULL = "full";
    static final String EMPTY = "empty";

    /**
     * One completed operation. {@code arg} is the value sent (SEND, TRY_SEND); {@code result}
     * is OK/PANIC/FULL for sends, the value received, CLOSED or EMPTY for receives, OK/PANIC
     * for close.
     */
    record Op(int thread, Kind kind, int arg, String result, long inv, long resp) {
        Op {
            if (resp <= inv) {
                throw new IllegalArgumentException("response before invocation: " + inv + ".." + resp);
            }
        }

        @Override
        public String toString() {
            String call = switch (kind) {
                case SEND -> "send(" + arg + ")";
                case TRY_SEND -> "trySend(" + arg + ")";
                case RECV -> "recv()";
                case TRY_RECV -> "tryRecv()";
                case CLOSE -> "close()";
            };
            return "T" + thread + " [" + inv + ".." + resp + "] " + call + " -> " + result;
        }
    }

    private final AtomicLong clock = new AtomicLong();
    private final List<Op> ops = new ArrayList<>();

    /** A ticket for an invocation or a response; call it right before and right after. */
    long tick() {
        return clock.incrementAndGet();
    }

    /** Adds a completed operation (thread-safe). */
    synchronized void add(Op op) {
        ops.add(op);
    }

    /** The operations, by invocation. */
    synchronized List<Op> ops() {
        List<Op> l = new ArrayList<>(ops);
        l.sort(Comparator.comparingLong(Op::inv));
        return l;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder();
        for (Op op : ops()) {
            sb.append("  ").append(op).append('\n');
        }
        return sb.toString();
    }
}
