package io.gmp4j.chan.lin;

import io.gmp4j.chan.lin.History.Kind;
import io.gmp4j.chan.lin.History.Op;
import java.util.Arrays;

/**
 * The sequential specification of a Go channel, as an immutable state: the buffered values in
 * order and the closed flag. An operation is applied only if it could complete in this state
 * with the result it had; a blocking operation that could not complete yet (a receive on an
 * empty open channel, a send on a full one) is not enabled here and must be placed later.
 *
 * <p>An unbuffered channel has no buffer: a successful send and the receive that took its value
 * happen together, so the checker linearizes them as one step ({@link #rendezvous}), and at
 * least one of the two must be a blocking operation (trySend only succeeds against a parked
 * receiver, tryRecv only against a parked sender). What a sequential state cannot say for an
 * unbuffered channel is whether a receiver is parked, so there a failed trySend or an empty
 * tryRecv on an open channel is always accepted: that part of the spec is weaker.
 */
record ChanModel(int cap, int[] buf, boolean closed) {
    static ChanModel empty(int cap) {
        return new ChanModel(cap, new int[0], false);
    }

    /** The state after {@code op} alone, or null if {@code op} cannot happen now with its result. */
    ChanModel apply(Op op) {
        String r = op.result();
        switch (op.kind()) {
            case CLOSE -> {
                if (closed) {
                    return r.equals(History.PANIC) ? this : null;
                }
                return r.equals(History.OK) ? new ChanModel(cap, buf, true) : null;
            }
            case SEND, TRY_SEND -> {
                if (closed) {
                    return r.equals(History.PANIC) ? this : null;
                }
                boolean room = buf.length < cap;
                if (r.equals(History.OK)) {
                    // Unbuffered successful sends go through rendezvous(), never alone.
                    return room ? push(op.arg()) : null;
                }
                if (r.equals(History.FULL)) {
                    return op.kind() == Kind.TRY_SEND && !room ? this : null;
                }
                return null;
            }
            case RECV, TRY_RECV -> {
                if (buf.length > 0) {
                    return r.equals(Integer.toString(buf[0])) ? pop() : null;
                }
                if (closed) {
                    return r.equals(History.CLOSED) ? this : null;
                }
                // Empty and open: only a non-blocking receive completes, and only as EMPTY.
                return op.kind() == Kind.TRY_RECV && r.equals(History.EMPTY) ? this : null;
            }
            default -> throw new AssertionError(op);
        }
    }

    /**
     * An unbuffered send and receive that linearize together: legal if the channel is open, the
     * receive got the sent value, both succeeded and at least one of them could park.
     */
    boolean rendezvous(Op send, Op recv) {
        return cap == 0 && !closed
                && (send.kind() == Kind.SEND || send.kind() == Kind.TRY_SEND)
                && (recv.kind() == Kind.RECV || recv.kind() == Kind.TRY_RECV)
                && send.result().equals(History.OK)
                && recv.result().equals(Integer.toString(send.arg()))
                && (send.kind() == Kind.SEND || recv.kind() == Kind.RECV);
    }

    private ChanModel push(int v) {
        int[] b = Arrays.copyOf(buf, buf.length + 1);
        b[buf.length] = v;
        return new ChanModel(cap, b, closed);
    }

    private ChanModel pop() {
        return new ChanModel(cap, Arrays.copyOfRange(buf, 1, buf.length), closed);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ChanModel m && m.cap == cap && m.closed == closed && Arrays.equals(m.buf, buf);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(buf) * 31 + (closed ? 1 : 0);
    }

    @Override
    public String toString() {
        return "chan(cap " + cap + ", buf " + Arrays.toString(buf) + (closed ? ", closed)" : ")");
    }
}
