package io.gmp4j.cluster;

import io.gmp4j.context.Cancelable;
import io.gmp4j.context.Context;
import io.gmp4j.context.ContextException;
import io.gmp4j.runtime.Scheduler;
import io.gmp4j.sync.Semaphore;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.eventbus.EventBus;
import io.vertx.core.eventbus.MessageProducer;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jctools.queues.MpscUnboundedArrayQueue;

/**
 * The outbound path to one node: a FIFO queue of encoded frames, drained on the node's send
 * context into batches (one event-bus message carries many frames, so Vert.x's per-message
 * cost and the event loop's wake-up are paid once per batch, not per tell), and a bound.
 *
 * <h2>The bound</h2>
 * At most {@code limit} messages to this node are between their senders and the wire at once: a
 * message holds a place from its send until Vert.x has written its batch to the node's
 * connection (or failed to: the node is gone or had no handler). At the bound, a goroutine or
 * platform-thread sender parks until a place frees (only sends to this node wait; other nodes
 * have their own bound); code that must not park (a behaviour actor or timer on an M, a Vert.x
 * event loop) has its message dropped and counted instead. When the node is lost, parked
 * senders wake and their messages are dropped. Control frames (watch, link, exit, down, stop)
 * take no place: one per watch or link, never a stream, and they must not wait on the path whose
 * loss they report. The queue therefore never holds more than {@code limit} messages plus the
 * control frames.
 *
 * <h2>Draining without a lost frame</h2>
 * A sender (1) offers its frame (the queue's producer index is a volatile CAS), (2) reads
 * {@link #scheduled} and, if it is false, CASes it to true and submits {@link #drain}. The
 * drain, finding the queue empty, (1) stores false, (2) re-reads the queue and, if a frame came,
 * CASes back to true and goes on. All four are synchronization actions: either the sender sees
 * false and schedules, or the drain's re-read sees the frame; if both, one CAS wins.
 */
final class Outbound {
    /** Frames per batch, at most. */
    static final int MAX_BATCH_FRAMES = 512;
    /** A batch stops growing past this many bytes (a single bigger frame travels alone). */
    static final int MAX_BATCH_BYTES = 256 << 10;
    /** Batches per drain before it gives the context to other tasks (other nodes' drains). */
    private static final int BATCHES_PER_DRAIN = 16;

    private final Semaphore places;
    private final MessageProducer<WireFrame> producer;
    private final io.vertx.core.Context sendContext;
    private final MpscUnboundedArrayQueue<Buffer> queue = new MpscUnboundedArrayQueue<>(256);
    /** True while a drain is submitted or running. */
    private final AtomicBoolean scheduled = new AtomicBoolean();
    /** Canceled when the node is lost: ends every wait for a place. */
    private final Cancelable gone = Context.withCancel(Context.background());

    Outbound(EventBus bus, String address, int limit, io.vertx.core.Context sendContext) {
        this.places = new Semaphore(limit);
        this.producer = bus.sender(address);
        this.sendContext = sendContext;
    }

    /**
     * Takes a place for one message: parks if the bound is reached and the caller may park.
     * False (nothing taken) when it may not, or when the node is lost while it waits.
     */
    boolean acquire() {
        if (places.tryAcquire(1)) {
            return true;
        }
        if (Scheduler.runningOnM() || io.vertx.core.Context.isOnVertxThread()) {
            return false;
        }
        try {
            places.acquire(gone.ctx(), 1);
            return true;
        } catch (ContextException e) {
            return false;
        }
    }

    /** Queues an encoded frame (a message's after {@link #acquire}) and makes sure a drain will take it. */
    void enqueue(Buffer frame) {
        queue.offer(frame);
        if (!scheduled.get() && scheduled.compareAndSet(false, true)) {
            sendContext.runOnContext(v -> drain());
        }
    }

    /** On the send context: writes the queued frames as batches, in queue order. */
    private void drain() {
        for (int batches = 0; batches < BATCHES_PER_DRAIN; batches++) {
            Buffer batch = null;
            int frames = 0;
            int held = 0;
            for (Buffer f; frames < MAX_BATCH_FRAMES && (batch == null || batch.length() < MAX_BATCH_BYTES)
                    && (f = queue.relaxedPoll()) != null; frames++) {
                if (batch == null) {
                    batch = Buffer.buffer(Math.min(MAX_BATCH_BYTES, 1 + 4 + f.length()) + 64).appendByte(ClusterNode.BATCH_VERSION);
                }
                batch.appendInt(f.length()).appendBuffer(f);
                if (f.getByte(1) == ClusterNode.TELL) {
                    held++;
                }
            }
            if (frames == 0) {
                scheduled.set(false);
                if (queue.isEmpty() || !scheduled.compareAndSet(false, true)) {
                    return; // empty, or a sender scheduled the next drain
                }
                continue;
            }
            int release = held;
            producer.write(new WireFrame(batch)).onComplete(ar -> {
                if (release > 0) {
                    places.release(release);
                }
            });
        }
        sendContext.runOnContext(v -> drain()); // more to do: after the context's other tasks
    }

    /** The node is lost: wakes the parked senders, whose messages are dropped. */
    void lost() {
        gone.cancel();
    }

    /** Places taken now (tests). */
    long inFlight() {
        return places.held();
    }
}
