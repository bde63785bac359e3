package io.gmp4j.chan;

import io.gmp4j.runtime.Bubble;
import io.gmp4j.runtime.Scheduler;
import io.gmp4j.runtime.ShortLock;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A Go channel: {@code make(chan T)} is {@code new Chan<T>()}, {@code make(chan T, n)} is
 * {@code new Chan<T>(n)}.
 *
 * <pre>{@code
 * Chan<String> ch = new Chan<>();
 * Go.go(() -> { ch.send("ping"); ch.close(); });
 * for (String s : ch) {            // for s := range ch
 *     System.out.println(s);
 * }
 * }</pre>
 *
 * <p>Works from goroutines and from any other thread; a waiting goroutine parks its goroutine,
 * any other thread parks itself. A goroutine woken by a send or a close runs next on the
 * waker's P (runnext), as in Go.
 *
 * <h2>Zero values and null</h2>
 * A receive from a closed, drained channel yields the channel's zero value: null for a channel
 * made with {@code new Chan<>()} or {@code new Chan<>(n)}, and {@code zero} for one made with
 * {@link #Chan(int, Object) new Chan&lt;&gt;(n, zero)}, so that Go's {@code <-c != 0} reads
 * {@code c.recv() != 0} on a {@code new Chan<Integer>(0, 0)}. {@link #recvOk} then gives
 * {@code (zero, false)}, a select's receive case fires with {@code zero} and {@code ok() ==
 * false}, and iteration ends. Null is never a value in a channel: {@code send(null)} (and a
 * select send case of null) throws {@link NullPointerException}, so that null stays
 * unambiguous on a channel made without a zero value. The zero value itself may be sent; it is
 * then received with {@code ok == true}.
 *
 * <h2>The nil channel</h2>
 * {@link #nil()} is Go's nil channel ({@code var c chan T}): a send or a receive on it blocks
 * forever (the goroutine dump shows {@code [chan send (nil chan)]} or {@code [chan receive
 * (nil chan)]}, and a runtime whose goroutines all wait so reports a deadlock); a
 * non-blocking send or receive on it never proceeds; a select case on it never fires;
 * {@link #close} panics with "close of nil channel"; its {@link #len} and {@link #cap} are 0.
 * Assigning it disables a select case as Go's {@code c = nil} does.
 *
 * <h2>Design (Go's hchan, {@code runtime/chan.go})</h2>
 * A lock, a ring buffer of {@code cap} slots, and FIFO queues of parked senders ({@code sendq})
 * and receivers ({@code recvq}). A send to a parked receiver hands the value over directly, and
 * a receive from a full buffer with a parked sender takes the head and moves the sender's value
 * to the tail, so that values leave in the order they were sent. Invariants, as in Go:
 * <ul>
 *   <li>at least one of {@code sendq} and {@code recvq} is empty, except for an unbuffered
 *       channel with one select blocked on it both sending and receiving;</li>
 *   <li>for a buffered channel, {@code qcount > 0} implies {@code recvq} is empty, and
 *       {@code qcount < cap} implies {@code sendq} is empty.</li>
 * </ul>
 * Parked threads are woken after the lock is released.
 *
 * @param <T> the element type
 */
public final class Chan<T> implements SendChan<T>, RecvChan<T> {
    private static final VarHandle LOCK;
    private static final VarHandle CLOSED;
    private static final VarHandle QCOUNT;
    private static final AtomicLong IDS = new AtomicLong();
    /** The one nil channel: generic types are erased, so one instance serves every element type. */
    private static final Chan<?> NIL = new Chan<>(0);
    static final String NULL_SEND = "send of null: a channel carries non-null values (null is the zero value of a channel made without one)";

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            LOCK = l.findVarHandle(Chan.class, "lock", int.class);
            CLOSED = l.findVarHandle(Chan.class, "closed", boolean.class);
            QCOUNT = l.findVarHandle(Chan.class, "qcount", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Marker results of {@link #recv0}. */
    static final Object CLOSED_EMPTY = new Object();
    static final Object WOULD_BLOCK = new Object();

    /** Select takes channel locks in this order (Go sorts by address; Java has none stable). */
    final long id = IDS.incrementAndGet();
    private final Object[] buf;
    private final int dataqsiz;
    /** What a receive from this channel yields once it is closed and drained: Go's zero value. */
    private final T zero;
    /** {@code (zero, false)}: the result of {@link #recvOk} once closed and drained. */
    private final Recv<T> closedRecv;
    // Guarded by lock; read without it (opaque) only by the non-blocking fast paths and len(),
    // as Go reads them with atomic loads there.
    private int qcount;
    private boolean closed;
    private int sendx;
    private int recvx;
    final WaitQ recvq = new WaitQ();
    final WaitQ sendq = new WaitQ();
    /** 0 free, 1 held. */
    private volatile int lock;
    /**
     * The synctest bubble this channel was made in, or null: only its members may use it (Go
     * panics), and a member waiting on it is durably blocked.
     */
    final Bubble bubble = Bubble.current();

    /** An unbuffered channel: Go's {@code make(chan T)}. A send waits for a receiver. */
    public Chan() {
        this(0);
    }

    /**
     * A channel with a buffer of {@code capacity} values: Go's {@code make(chan T, capacity)}.
     *
     * @throws IllegalArgumentException if capacity is negative ("makechan: size out of range")
     */
    public Chan(int capacity) {
        this(capacity, null);
    }

    /**
     * A channel with a buffer of {@code capacity} values (0: unbuffered) whose receives yield
     * {@code zero} once it is closed and drained, as Go's channels yield their element type's
     * zero value: {@code make(chan int)} is {@code new Chan<Integer>(0, 0)}. A null
     * {@code zero} is the default (a closed channel yields null).
     *
     * @throws IllegalArgumentException if capacity is negative ("makechan: size out of range")
     */
    public Chan(int capacity, T zero) {
        if (capacity < 0) {
            throw new IllegalArgumentException("makechan: size out of range: " + capacity);
        }
        this.dataqsiz = capacity;
        this.buf = capacity == 0 ? null : new Object[capacity];
        this.zero = zero;
        this.closedRecv = zero == null ? Recv.closed() : new Recv<>(zero, false);
    }

    /**
     * Go's nil channel, the value of {@code var c chan T}: a send or receive on it blocks
     * forever, a select case on it never fires, closing it panics. One shared instance, for
     * every element type; {@link #isNil} tells it apart. {@code c = Chan.nil()} disables the
     * select cases on {@code c}, as Go's {@code c = nil}.
     */
    @SuppressWarnings("unchecked")
    public static <T> Chan<T> nil() {
        return (Chan<T>) NIL;
    }

    /** Go's {@code c == nil}: true for {@link #nil()}. */
    public boolean isNil() {
        return this == NIL;
    }

    /** This channel seen as send-only ({@code chan<- T}); the nil channel stays nil. */
    public SendChan<T> sendOnly() {
        return this;
    }

    /** This channel seen as receive-only ({@code <-chan T}); the nil channel stays nil. */
    public RecvChan<T> recvOnly() {
        return this;
    }

    /** The zero value, for a select's receive case on this channel once it is closed. */
    T zeroValue() {
        return zero;
    }

    // =====================================================================================
    // The lock
    // =====================================================================================

    /**
     * Takes the lock, spinning, then yielding. Never held across a park, and held only for a
     * few field updates, so a waiter mostly waits for a thread the OS descheduled mid-section;
     * yielding lets that thread (or, in a goroutine, the other goroutines of this P) run.
     */
    void lock() {
        if (!LOCK.compareAndSet(this, 0, 1)) {
            ShortLock.acquireSlow(LOCK, this, true);
        }
    }

    /**
     * Takes the lock while already holding another runtime lock (a select's later channels):
     * never yields, because unmounting while holding a lock could leave an M that spins on it
     * (a timer callback has no P to give) waiting for a goroutine that needs that M's P.
     */
    void lockHolding() {
        if (!LOCK.compareAndSet(this, 0, 1)) {
            ShortLock.acquireSlow(LOCK, this, false);
        }
    }

    void unlock() {
        // Release store: publishes every write of the critical section to the next locker.
        LOCK.setRelease(this, 0);
    }

    // =====================================================================================
    // Send
    // =====================================================================================

    @Override
    public void send(T value) {
        send0(value, true);
    }

    @Override
    public boolean trySend(T value) {
        return send0(value, false);
    }

    /** Go's chansend. */
    private boolean send0(Object elem, boolean block) {
        if (elem == null) {
            throw new NullPointerException(NULL_SEND);
        }
        if (bubble != null) {
            Bubble.checkMember(bubble, "send on");
        }
        // Go's fast path for a failed non-blocking send: not closed and full, without the lock.
        // A racy snapshot is fine: the answer could have been given an instant earlier.
        if (!block && !(boolean) CLOSED.getOpaque(this) && fullRacy()) {
            return false;
        }
        if (this == NIL) {
            // Go's chansend on a nil channel: never proceeds (the fast path above already said
            // so for a non-blocking send: nothing waits on NIL, so it is always "full").
            if (!block) {
                return false;
            }
            Forever.park("chan send (nil chan)");
        }
        lock();
        if (closed) {
            unlock();
            throw new ChannelClosedException("send on closed channel");
        }
        Sudog sg = recvq.dequeue();
        if (sg != null) {
            // A receiver is parked: hand the value over directly, bypassing the buffer.
            sg.elem = elem;
            sg.success = true;
            unlock();
            sg.waiter.wake();
            Scheduler.safePoint();
            return true;
        }
        if (qcount < dataqsiz) {
            bufPut(elem);
            unlock();
            Scheduler.safePoint();
            return true;
        }
        if (!block) {
            unlock();
            return false;
        }
        Sudog mine = Sudog.acquire(this, elem);
        sendq.enqueue(mine);
        unlock();
        mine.waiter.park("chan send", bubble != null);
        boolean sent = mine.success;
        mine.release();
        if (!sent) {
            throw new ChannelClosedException("send on closed channel");
        }
        return true;
    }

    private boolean fullRacy() {
        // Unbuffered: full unless a receiver waits (Go reads recvq.first racily too).
        if (dataqsiz == 0) {
            return recvq.isEmpty();
        }
        return (int) QCOUNT.getOpaque(this) == dataqsiz;
    }

    // =====================================================================================
    // Receive
    // =====================================================================================

    @Override
    @SuppressWarnings("unchecked")
    public T recv() {
        Object v = recv0(true);
        return v == CLOSED_EMPTY ? zero : (T) v;
    }

    @Override
    @SuppressWarnings("unchecked")
    public Recv<T> recvOk() {
        Object v = recv0(true);
        return v == CLOSED_EMPTY ? closedRecv : new Recv<>((T) v, true);
    }

    @Override
    @SuppressWarnings("unchecked")
    public Recv<T> tryRecv() {
        Object v = recv0(false);
        if (v == WOULD_BLOCK) {
            return null;
        }
        return v == CLOSED_EMPTY ? closedRecv : new Recv<>((T) v, true);
    }

    /**
     * Go's chanrecv.
     *
     * @return the value; {@link #CLOSED_EMPTY} if closed and drained; {@link #WOULD_BLOCK} if
     *     not blocking and nothing is ready
     */
    private Object recv0(boolean block) {
        if (bubble != null) {
            Bubble.checkMember(bubble, "receive from");
        }
        // Go's fast path for a failed non-blocking receive. The order matters: empty is checked
        // before closed, and empty again after it, because a channel cannot become non-empty
        // once closed: seeing "empty, then closed, then still empty" proves a moment that was
        // both, while a value sent just before the close is never reported as lost.
        if (!block && emptyRacy()) {
            if (!(boolean) CLOSED.getAcquire(this)) {
                return WOULD_BLOCK;
            }
            if (emptyRacy()) {
                return CLOSED_EMPTY;
            }
        }
        if (this == NIL) {
            // Go's chanrecv on a nil channel (a non-blocking one returned above: nothing sends
            // on NIL, so it always looks empty and never closed).
            if (!block) {
                return WOULD_BLOCK;
            }
            Forever.park("chan receive (nil chan)");
        }
        lock();
        if (closed && qcount == 0) {
            unlock();
            Scheduler.safePoint();
            return CLOSED_EMPTY;
        }
        Sudog sg = sendq.dequeue();
        if (sg != null) {
            Object v = recvFromSender(sg);
            unlock();
            sg.waiter.wake();
            Scheduler.safePoint();
            return v;
        }
        if (qcount > 0) {
            Object v = bufTake();
            unlock();
            Scheduler.safePoint();
            return v;
        }
        if (!block) {
            unlock();
            return WOULD_BLOCK;
        }
        Sudog mine = Sudog.acquire(this, null);
        recvq.enqueue(mine);
        unlock();
        mine.waiter.park("chan receive", bubble != null);
        Object v = mine.success ? mine.elem : CLOSED_EMPTY;
        mine.release();
        return v;
    }

    /**
     * Lock-free emptiness for the non-blocking receive's fast path. Acquire loads: the
     * "empty, then closed, then still empty" argument needs this read to stay before the read
     * of closed that follows it (Go uses atomic loads here; an opaque read could be reordered
     * after the acquire of closed on a weak memory model).
     */
    private boolean emptyRacy() {
        if (dataqsiz == 0) {
            return sendq.isEmptyAcquire();
        }
        return (int) QCOUNT.getAcquire(this) == 0;
    }

    // =====================================================================================
    // Pieces shared with Select (each called with the lock held)
    // =====================================================================================

    /**
     * Go's recv(): takes a value from parked sender {@code sg}. Unbuffered: straight from the
     * sender. Buffered (so the buffer is full): the head of the buffer, and the sender's value
     * goes to the tail. Marks {@code sg} successful; the caller unlocks and wakes it.
     */
    Object recvFromSender(Sudog sg) {
        Object v;
        if (dataqsiz == 0) {
            v = sg.elem;
        } else {
            v = buf[recvx];
            buf[recvx] = sg.elem;
            if (++recvx == dataqsiz) {
                recvx = 0;
            }
            sendx = recvx; // the buffer stays full: sendx == recvx
        }
        sg.elem = null;
        sg.success = true;
        return v;
    }

    /** Go's send(): gives {@code elem} to parked receiver {@code sg}; the caller wakes it. */
    static void sendToReceiver(Sudog sg, Object elem) {
        sg.elem = elem;
        sg.success = true;
    }

    /**
     * A receive might proceed now: a sender waits, a value is buffered, or the channel is
     * closed. Read without the lock (a select's fast path), so only a hint: the caller takes
     * the lock and checks again; a false "no" costs only the select's slower path, which
     * checks every case under every lock.
     */
    boolean recvMaybeReady() {
        return !emptyRacy() || (boolean) CLOSED.getOpaque(this);
    }

    /** A send might proceed now (or fail: closed). A hint read without the lock, as {@link #recvMaybeReady}. */
    boolean sendMaybeReady() {
        return !fullRacy() || (boolean) CLOSED.getOpaque(this);
    }

    boolean hasRoom() {
        return qcount < dataqsiz;
    }

    boolean hasBuffered() {
        return qcount > 0;
    }

    boolean isClosedLocked() {
        return closed;
    }

    void bufPut(Object elem) {
        buf[sendx] = elem;
        if (++sendx == dataqsiz) {
            sendx = 0;
        }
        // Release store of qcount: the opaque readers only need the count, but len() callers
        // may reasonably expect the count not to run ahead of the slot it counts.
        QCOUNT.setRelease(this, qcount + 1);
    }

    Object bufTake() {
        Object v = buf[recvx];
        buf[recvx] = null; // do not keep a received value reachable from the channel
        if (++recvx == dataqsiz) {
            recvx = 0;
        }
        QCOUNT.setRelease(this, qcount - 1);
        return v;
    }

    // =====================================================================================
    // Close, len, cap, range
    // =====================================================================================

    /** Go's closechan. */
    @Override
    public void close() {
        if (this == NIL) {
            throw new NilChannelException("close of nil channel");
        }
        if (bubble != null) {
            Bubble.checkMember(bubble, "close of");
        }
        lock();
        if (closed) {
            unlock();
            throw new ChannelClosedException("close of closed channel");
        }
        // Release store: a lock-free reader that sees closed also sees everything sent before.
        CLOSED.setRelease(this, true);
        // Release every parked receiver (null, false) and sender (success false: they panic),
        // then wake them outside the lock. Lost select cases are skipped by dequeue.
        Sudog wake = null;
        Sudog sg;
        while ((sg = recvq.dequeue()) != null) {
            sg.elem = null;
            sg.success = false;
            sg.next = wake;
            wake = sg;
        }
        while ((sg = sendq.dequeue()) != null) {
            sg.elem = null;
            sg.success = false;
            sg.next = wake;
            wake = sg;
        }
        unlock();
        while (wake != null) {
            Sudog n = wake.next;
            wake.next = null;
            wake.waiter.wake();
            wake = n;
        }
    }

    /** True once {@link #close} was called (values may still be buffered); never for the nil channel. */
    public boolean isClosed() {
        return (boolean) CLOSED.getAcquire(this);
    }

    @Override
    public int len() {
        return (int) QCOUNT.getOpaque(this);
    }

    @Override
    public int cap() {
        return dataqsiz;
    }

    /**
     * Go's {@code for v := range ch}: each {@code next()} receives (blocking); iteration ends
     * once the channel is closed and drained. {@code hasNext()} is where it blocks (forever, on
     * the nil channel).
     */
    @Override
    public Iterator<T> iterator() {
        return new Iterator<>() {
            private Object pending;

            @Override
            public boolean hasNext() {
                if (pending == null) {
                    pending = recv0(true);
                }
                return pending != CLOSED_EMPTY;
            }

            @Override
            @SuppressWarnings("unchecked")
            public T next() {
                if (!hasNext()) {
                    throw new NoSuchElementException("channel closed");
                }
                Object v = pending;
                pending = null;
                return (T) v;
            }
        };
    }

    @Override
    public String toString() {
        if (this == NIL) {
            return "Chan[nil]";
        }
        return "Chan[" + id + ", len=" + len() + ", cap=" + dataqsiz + (isClosed() ? ", closed]" : "]");
    }
}
