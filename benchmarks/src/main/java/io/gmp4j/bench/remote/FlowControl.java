package io.gmp4j.bench.remote;

/**
 * The flow control both implementations' throughput runs share, so that neither transport
 * drops a message (both deliver at most once: gmp4j's cluster drops a behaviour actor's send
 * past a node's outbound limit of 8192 frames, Pekko's Artery drops past its outbound queue of
 * 3072 messages): a credit window per sender. A sender has at most {@link #window} messages
 * sent and not yet acknowledged; the receiver acknowledges a sender every {@link #ackEvery}
 * messages of that sender, with the count it has of it. The windows of all senders add up to
 * {@link #IN_FLIGHT} messages, well under both limits, whatever the number of senders.
 *
 * <p>Progress: a sender that stops has {@code window} messages in flight; the receiver gets them
 * all (nothing is dropped below the limits), and since {@code window >= ackEvery} one of them is
 * a multiple of {@code ackEvery}, whose acknowledgement lets the sender go on.
 */
final class FlowControl {
    /** Messages in flight from all senders together, at most. */
    static final int IN_FLIGHT = 2000;

    private FlowControl() {
    }

    /** One sender's window when {@code senders} share {@link #IN_FLIGHT}. */
    static int window(int senders) {
        return Math.max(4, IN_FLIGHT / senders);
    }

    /** The receiver acknowledges each sender every this many of its messages: a quarter window. */
    static int ackEvery(int senders) {
        return window(senders) / 4;
    }

    /** A sender's side, confined to the sender actor: what it sent, what was acknowledged. */
    static final class Credit {
        private final long quota;
        private final int window;
        private long sent;
        private long acked;

        /** A sender that sends {@code quota} messages, {@code window} of them unacknowledged at most. */
        Credit(long quota, int window) {
            if (quota < 0 || window < 1) {
                throw new IllegalArgumentException("credit: quota " + quota + ", window " + window);
            }
            this.quota = quota;
            this.window = window;
        }

        /** Takes an acknowledgement that the receiver has {@code received} messages of this sender. */
        void ack(long received) {
            if (received > sent) {
                throw new IllegalStateException("acknowledged " + received + " of " + sent + " sent");
            }
            acked = Math.max(acked, received);
        }

        /** The sequence number of the next message this sender may send now, or -1 if none may. */
        long next() {
            if (sent >= quota || sent - acked >= window) {
                return -1;
            }
            return sent++;
        }

        /** Messages sent so far. */
        long sent() {
            return sent;
        }
    }

    /**
     * The receiver's side, confined to the receiver actor: per sender, the next sequence number
     * it expects; counts what arrived and what was not next in its sender's sequence.
     */
    static final class Tally {
        private long[] next = new long[0];
        private long total;
        private long received;
        private long errors;
        private int ackEvery = 1;

        /** Starts a run of {@code total} messages from {@code senders} senders. */
        void reset(long total, int senders) {
            if (total < 0 || senders < 1) {
                throw new IllegalArgumentException("tally: total " + total + ", senders " + senders);
            }
            this.next = new long[senders];
            this.total = total;
            this.received = 0;
            this.errors = 0;
            this.ackEvery = ackEvery(senders);
        }

        /**
         * Counts message {@code seq} of {@code sender}; returns the count to acknowledge to that
         * sender now, or -1 when no acknowledgement is due.
         */
        long onData(int sender, long seq) {
            received++;
            if (sender < 0 || sender >= next.length || seq != next[sender]) {
                errors++;
                return -1;
            }
            long n = ++next[sender];
            return n % ackEvery == 0 ? n : -1;
        }

        /** Whether this message completed the run: all {@code total} arrived (exactly once each unless errors). */
        boolean justCompleted() {
            return received == total;
        }

        long received() {
            return received;
        }

        long errors() {
            return errors;
        }
    }
}
