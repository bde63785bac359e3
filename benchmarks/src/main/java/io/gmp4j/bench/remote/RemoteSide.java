package io.gmp4j.bench.remote;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The driver's side of one implementation: its actor system, joined to the peers it is
 * connected to in turn. Called from the driver's main thread; the actors report to it through
 * queues.
 */
interface RemoteSide extends AutoCloseable {
    /** When the watcher got its {@code Terminated}: {@code System.nanoTime()}, and what it said. */
    record Terminal(long nanos, String reason) {
    }

    /** The arguments a peer of this implementation needs after the implementation's name. */
    List<String> peerArgs();

    /**
     * Finds the peer's actors ("ponger", "receiver") from the peer's ready line {@code info};
     * later calls talk to this peer.
     */
    void connect(String info) throws Exception;

    /**
     * {@code n} round trips with the peer's ponger, the next ping sent when the pong arrives;
     * the latency of each, in ns, in order. Fails unless every pong is the answer to the ping in flight.
     */
    long[] pingpong(int n, Duration timeout) throws Exception;

    /**
     * {@code total} messages (a multiple of {@code senders}) from {@code senders} sender actors
     * here to the peer's receiver, in {@link FlowControl}'s windows; returns the receiver's report,
     * sent when its count reached {@code total}.
     */
    RemoteMsgs.Done throughput(int senders, long total, Duration timeout) throws Exception;

    /**
     * Spawns an actor that watches the peer's ponger and then makes one round trip with it (so
     * the watch went out before); returns once the pong came, with the queue where the
     * watcher's {@link Terminal} will appear.
     */
    BlockingQueue<Terminal> watchPonger(Duration timeout) throws Exception;

    @Override
    void close();

    /** Takes the next item of {@code q} as a {@code type}, failing after {@code timeout} or on a Throwable. */
    static <T> T take(BlockingQueue<?> q, Class<T> type, Duration timeout, String what) throws InterruptedException {
        Object o = q.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
        if (o == null) {
            throw new IllegalStateException(what + ": nothing within " + timeout.toSeconds() + " s");
        }
        if (o instanceof Throwable t) {
            throw new IllegalStateException(what + ": " + t.getMessage(), t);
        }
        if (!type.isInstance(o)) {
            throw new IllegalStateException(what + ": expected a " + type.getSimpleName() + ", got " + o);
        }
        return type.cast(o);
    }
}
