package io.gmp4j.chan;

import io.gmp4j.runtime.Bubble;
import io.gmp4j.runtime.Fastrand;
import io.gmp4j.runtime.Scheduler;
import io.gmp4j.runtime.Waiter;
import io.gmp4j.runtime.spi.Clock;
import java.time.Duration;
import java.util.Arrays;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * Go's {@code select} statement. Add the cases, then call {@link #select()} (blocks until one
 * case can proceed) or {@link #selectNow()} (the {@code default} case: returns
 * {@link #DEFAULT} if none can). Each add returns the case's index, and {@code select} returns
 * the index of the case that fired:
 *
 * <pre>{@code
 * // select {
 * // case v := <-in:      handle(v)
 * // case out <- x:       sent()
 * // case <-time.After(d): timedOut()
 * // }
 * Select s = new Select();
 * int a = s.recv(in), b = s.send(out, x), t = s.timeout(d);
 * int fired = s.select();
 * if (fired == a) handle(s.value());
 * else if (fired == b) sent();
 * else timedOut();
 * }</pre>
 *
 * <p>The same as one statement, closer to Go's text (each call allocates its case objects):
 *
 * <pre>{@code
 * Select.select(
 *     Select.onRecv(in, v -> handle(v)),
 *     Select.onSend(out, x, () -> sent()),
 *     Select.onTimeout(d, () -> timedOut()));
 * }</pre>
 *
 * <p>Semantics are Go's: when several cases are ready, one is chosen uniformly at random; a case
 * on the nil channel ({@link Chan#nil()}, or a null reference) never fires, so a loop disables
 * a case with {@code c = Chan.nil()} as Go's with {@code c = nil}; a receive from a closed
 * channel fires with {@code ok() == false} and the channel's zero value; a send to a closed
 * channel throws "send on closed channel"; the same channel may appear in several cases. With
 * no case that can ever fire (no cases, or only nil channels) and no timeout, {@code select()}
 * blocks forever; {@link #blockForever()} is Go's {@code select {}}.
 *
 * <p>A {@code Select} is reusable and meant to be: {@link #reset()} it and add the cases again in
 * a loop, and it allocates nothing per round once its arrays have grown (except a runtime timer
 * when a timeout case is used). Not thread-safe: one thread uses it at a time.
 *
 * <h2>Design (Go's selectgo, {@code runtime/select.go})</h2>
 * Pass 0: a random poll order. A fast path that Go does not have: in poll order, a case whose
 * channel looks ready (read without its lock) is tried under that one lock, and the first
 * that can proceed fires; a select that finds a ready case so takes one lock, not all of them.
 * Otherwise a lock order (channels sorted by id) and every lock taken. Pass 1: in poll order,
 * the first case that can proceed now. Pass 2: enqueue one sudog per case, all sharing one
 * {@link Waiter}, release the locks and park once. The first waker wins the waiter's claim;
 * wakers that lose skip that sudog. Pass 3: retake the locks of the channels that still hold
 * a sudog of ours (not the winner's, unless it holds another) and remove them.
 *
 * <p>Choosing the first ready case of a random order under one lock at a time is still Go's
 * rule: the case that fires could proceed when it fired, and among cases ready together each is
 * equally likely to come first. What it gives up is only a snapshot of all channels at one
 * instant, which no program can observe.
 */
public final class Select {
    /** What {@link #selectNow()} returns when no case is ready: Go's {@code default} case. */
    public static final int DEFAULT = -1;

    private Chan<?>[] chans = new Chan<?>[4];
    private boolean[] isSend = new boolean[4];
    private Object[] elems = new Object[4];
    private Sudog[] sudogs = new Sudog[4];
    private int[] pollorder = new int[4];
    private int[] lockorder = new int[4];
    private int ncases;
    private int timeoutIndex = -1;
    private long timeoutNanos;
    /** The channels {@link #sellock} locked, in lock order; null beyond those. */
    private Chan<?>[] held = new Chan<?>[4];
    private Waiter waiter;
    private Object value;
    private boolean ok;
    /** Set by {@link #proceed}: the parked peer a case completed with, woken by {@link #finish} after the unlock. */
    private Sudog toWake;
    /** Set by {@link #proceed}: the case was a send on a closed channel, thrown by {@link #finish}. */
    private boolean sendOnClosed;

    /** {@link #proceed}'s answer for a case that cannot proceed now. */
    private static final int NOT_READY = -2;

    /** An empty select; add cases with {@link #recv}, {@link #send} and {@link #timeout}. */
    public Select() {
    }

    /** Removes all cases (and the last result) so that this select can be built again. */
    public Select reset() {
        Arrays.fill(chans, 0, ncases, null);
        Arrays.fill(elems, 0, ncases, null);
        ncases = 0;
        timeoutIndex = -1;
        value = null;
        ok = false;
        return this;
    }

    /**
     * Adds a receive case: Go's {@code case v, ok := <-ch}. The nil channel (or null) never fires.
     *
     * @return the case's index
     */
    public int recv(RecvChan<?> ch) {
        return add((Chan<?>) ch, false, null);
    }

    /**
     * Adds a send case: Go's {@code case ch <- value}. The nil channel (or null) never fires.
     *
     * @return the case's index
     * @throws NullPointerException if value is null (also on the nil channel: a channel carries
     *     non-null values)
     */
    public <T> int send(SendChan<T> ch, T value) {
        if (value == null) {
            throw new NullPointerException(Chan.NULL_SEND);
        }
        return add((Chan<?>) ch, true, value);
    }

    /**
     * Adds a timeout case that fires when {@code d} has passed since {@link #select()} began
     * and no other case fired first: Go's {@code case <-time.After(d)}, without the channel.
     * A select has at most one timeout case.
     *
     * @return the case's index
     */
    public int timeout(Duration d) {
        if (timeoutIndex >= 0) {
            throw new IllegalStateException("select: a second timeout case");
        }
        timeoutNanos = Math.max(0, d.toNanos());
        timeoutIndex = add(null, false, null);
        return timeoutIndex;
    }

    private int add(Chan<?> c, boolean send, Object elem) {
        int i = ncases;
        if (i == chans.length) {
            int n = i * 2;
            chans = Arrays.copyOf(chans, n);
            isSend = Arrays.copyOf(isSend, n);
            elems = Arrays.copyOf(elems, n);
            sudogs = Arrays.copyOf(sudogs, n);
            held = new Chan<?>[n];
            pollorder = new int[n];
            lockorder = new int[n];
        }
        // The nil channel is held as null: a case without a channel, skipped by every pass.
        chans[i] = c == null || c.isNil() ? null : c;
        isSend[i] = send;
        elems[i] = elem;
        ncases = i + 1;
        return i;
    }

    /**
     * The value received by the receive case that fired last; the channel's zero value (null
     * unless it was made with one) if it saw the channel closed.
     */
    @SuppressWarnings("unchecked")
    public <T> T value() {
        return (T) value;
    }

    /** For the receive case that fired last: true if a value was received, false if closed. */
    public boolean ok() {
        return ok;
    }

    /**
     * Blocks until one case can proceed, performs it and returns its index. With no case that
     * can ever fire (none added, or only nil channels) and no timeout it never returns, as Go's.
     *
     * @throws ChannelClosedException if the chosen case sends on a closed channel
     */
    public int select() {
        return selectgo(true);
    }

    /**
     * Go's select with a {@code default} case: performs a ready case and returns its index, or
     * returns {@link #DEFAULT} at once if none is ready. A timeout case fires here only if its
     * duration is zero.
     */
    public int selectNow() {
        return selectgo(false);
    }

    // =====================================================================================
    // The statement form
    // =====================================================================================

    /** A receive case for {@link #select(SelectCase...)}: {@code case v := <-ch: body(v)}. */
    public static <T> SelectCase onRecv(RecvChan<T> ch, Consumer<? super T> body) {
        return new SelectCase(SelectCase.Kind.RECV, (Chan<?>) ch, null, null, body);
    }

    /**
     * A receive case that also gets {@code ok}: {@code case v, ok := <-ch: body(v, ok)}; ok is
     * false (and v the channel's zero value) when the channel is closed.
     */
    public static <T> SelectCase onRecvOk(RecvChan<T> ch, BiConsumer<? super T, Boolean> body) {
        return new SelectCase(SelectCase.Kind.RECV_OK, (Chan<?>) ch, null, null, body);
    }

    /** A send case: {@code case ch <- value: body()}. */
    public static <T> SelectCase onSend(SendChan<T> ch, T value, Runnable body) {
        if (value == null) {
            throw new NullPointerException(Chan.NULL_SEND);
        }
        return new SelectCase(SelectCase.Kind.SEND, (Chan<?>) ch, value, null, body);
    }

    /** A timeout case: {@code case <-time.After(d): body()}. */
    public static SelectCase onTimeout(Duration d, Runnable body) {
        return new SelectCase(SelectCase.Kind.TIMEOUT, null, null, d, body);
    }

    /**
     * Go's {@code select {}}: blocks the calling goroutine forever (the goroutine dump shows
     * {@code [select (no cases)]}; a runtime whose goroutines all wait so reports a deadlock).
     * Other goroutines keep running. Never returns. On a thread that is not a goroutine it
     * parks that thread for good.
     */
    public static void blockForever() {
        Forever.park("select (no cases)");
    }

    /** Go's {@code select { cases }}: blocks until a case fires, then runs its body. */
    public static void select(SelectCase... cases) {
        run(null, cases);
    }

    /**
     * Go's {@code select { cases; default: otherwise }}: runs the body of a ready case, or
     * {@code otherwise} if none is ready.
     */
    public static void selectOrDefault(Runnable otherwise, SelectCase... cases) {
        if (otherwise == null) {
            throw new NullPointerException("select: null default body");
        }
        run(otherwise, cases);
    }

    private static void run(Runnable otherwise, SelectCase[] cases) {
        Select s = new Select();
        for (SelectCase c : cases) {
            c.addTo(s);
        }
        int fired = otherwise == null ? s.select() : s.selectNow();
        if (fired == DEFAULT) {
            otherwise.run();
        } else {
            cases[fired].run(s);
        }
    }

    private int selectgo(boolean block) {
        value = null;
        ok = false;
        final Chan<?>[] chans = this.chans;
        final boolean[] isSend = this.isSend;

        // Pass 0: poll order (a uniform random permutation of the channel cases: Go's fairness),
        // from the runtime's seed when it has one (Fastrand).
        int npoll = 0;
        // Durable for a synctest bubble when every channel is the bubble's (Go's rule); a
        // timeout is the bubble's own timer.
        boolean durable = true;
        for (int i = 0; i < ncases; i++) {
            Chan<?> c = chans[i];
            if (c == null) {
                continue; // a null channel never fires; nor does the timeout pseudo-case here
            }
            if (c.bubble != null) {
                Bubble.checkMember(c.bubble, "select on");
            } else {
                durable = false;
            }
            int j = npoll == 0 ? 0 : Fastrand.intn(npoll + 1);
            pollorder[npoll] = pollorder[j];
            pollorder[j] = i;
            npoll++;
        }

        // Fast path: in poll order, a case that looks ready is tried under its own lock alone.
        // (With one case the full path below takes that one lock anyway.)
        if (npoll > 1) {
            for (int k = 0; k < npoll; k++) {
                int i = pollorder[k];
                Chan<?> c = chans[i];
                if (isSend[i] ? c.sendMaybeReady() : c.recvMaybeReady()) {
                    c.lock();
                    int fired = proceed(i);
                    c.unlock();
                    if (fired != NOT_READY) {
                        return finish(fired);
                    }
                }
            }
        }

        // Lock order (by channel id, so that two selects never lock in opposite orders); take
        // every lock.
        for (int k = 0; k < npoll; k++) {
            int i = pollorder[k];
            long id = chans[i].id;
            int m = k - 1;
            while (m >= 0 && chans[lockorder[m]].id > id) {
                lockorder[m + 1] = lockorder[m];
                m--;
            }
            lockorder[m + 1] = i;
        }
        int nheld = sellock(npoll, null);

        // Pass 1: the first case, in poll order, that can proceed now.
        for (int k = 0; k < npoll; k++) {
            int fired = proceed(pollorder[k]);
            if (fired != NOT_READY) {
                selunlock(nheld);
                return finish(fired);
            }
        }
        if (timeoutIndex >= 0 && timeoutNanos == 0) {
            selunlock(nheld);
            return finish(timeoutIndex);
        }
        if (!block) {
            selunlock(nheld);
            return DEFAULT;
        }
        if (npoll == 0 && timeoutIndex < 0) {
            // Nothing can ever fire: Go's block() for select {}, its selectgo parked with no
            // sudog for a select of nil channels only.
            Forever.park(ncases == 0 ? "select (no cases)" : "select");
        }

        // Pass 2: one sudog per case, every one sharing the waiter; then park once.
        Waiter w = waiter;
        if (w == null || !w.reusable()) {
            w = waiter = Waiter.current();
        } else {
            w.reset();
        }
        for (int k = 0; k < npoll; k++) {
            int i = lockorder[k];
            Sudog sg = sudogs[i];
            if (sg == null) {
                sg = sudogs[i] = new Sudog();
            }
            Chan<?> c = chans[i];
            sg.waiter = w;
            sg.chan = c;
            sg.isSelect = true;
            sg.caseIndex = i;
            sg.success = false;
            if (isSend[i]) {
                sg.elem = elems[i];
                c.sendq.enqueue(sg);
            } else {
                sg.elem = null;
                c.recvq.enqueue(sg);
            }
        }
        selunlock(nheld);
        if (timeoutIndex >= 0) {
            w.park("select", Clock.nanoTime() + timeoutNanos, durable);
        } else {
            w.park("select", durable);
        }

        // Pass 3: take the other cases' sudogs off their queues, and clear every sudog (they
        // are reused by the next round and must not keep values or channels reachable).
        Object winner = w.claimedBy();
        Sudog won = winner instanceof Sudog sg ? sg : null;
        int i = won == null ? timeoutIndex : won.caseIndex;
        Object v = won == null ? null : won.elem;
        boolean success = won != null && won.success;
        nheld = sellock(npoll, won);
        for (int k = 0; k < npoll; k++) {
            int c = lockorder[k];
            Sudog sg = sudogs[c];
            if (sg != won) {
                if (isSend[c]) {
                    chans[c].sendq.remove(sg);
                } else {
                    chans[c].recvq.remove(sg);
                }
            }
            sg.chan = null;
            sg.waiter = null;
            sg.elem = null;
        }
        selunlock(nheld);
        if (won == null) {
            return timeoutIndex; // the timeout claimed the wait (Waiter.TIMED_OUT)
        }
        if (isSend[i]) {
            if (!success) {
                throw new ChannelClosedException("send on closed channel");
            }
            return i;
        }
        return received(i, success ? v : chans[i].zeroValue(), success);
    }

    /**
     * With case {@code i}'s channel locked: performs the case if it can proceed now and returns
     * {@code i}, else {@link #NOT_READY}. A peer it completes with is woken, and a send on a
     * closed channel thrown, by {@link #finish} once the caller has unlocked.
     */
    private int proceed(int i) {
        Chan<?> c = chans[i];
        if (isSend[i]) {
            if (c.isClosedLocked()) {
                sendOnClosed = true;
                return i;
            }
            Sudog sg = c.recvq.dequeue();
            if (sg != null) {
                Chan.sendToReceiver(sg, elems[i]);
                toWake = sg;
                return i;
            }
            if (c.hasRoom()) {
                c.bufPut(elems[i]);
                return i;
            }
            return NOT_READY;
        }
        Sudog sg = c.sendq.dequeue();
        if (sg != null) {
            value = c.recvFromSender(sg);
            ok = true;
            toWake = sg;
            return i;
        }
        if (c.hasBuffered()) {
            value = c.bufTake();
            ok = true;
            return i;
        }
        if (c.isClosedLocked()) {
            value = c.zeroValue();
            return i; // ok false: what selectgo set at the start
        }
        return NOT_READY;
    }

    /** After the unlock: completes what {@link #proceed} did for case {@code i}. */
    private int finish(int i) {
        if (sendOnClosed) {
            sendOnClosed = false;
            throw new ChannelClosedException("send on closed channel");
        }
        Sudog sg = toWake;
        if (sg != null) {
            toWake = null;
            sg.waiter.wake();
        }
        Scheduler.safePoint();
        return i;
    }

    private int received(int i, Object v, boolean got) {
        value = v;
        ok = got;
        Scheduler.safePoint();
        return i;
    }

    /**
     * Locks, in lock order, every distinct channel of the first {@code n} cases (a channel in
     * several cases is locked once), except those whose only records are {@code except}: pass 3
     * passes the winner's record, which its waker already took off its queue. Records the
     * channels in {@link #held} for {@link #selunlock} and returns how many. Only the first lock
     * may yield while it waits: see {@link Chan#lockHolding}.
     */
    private int sellock(int n, Sudog except) {
        int nheld = 0;
        for (int k = 0; k < n; k++) {
            int i = lockorder[k];
            Chan<?> c = chans[i];
            if ((except != null && sudogs[i] == except) || (nheld > 0 && held[nheld - 1] == c)) {
                continue;
            }
            if (nheld == 0) {
                c.lock();
            } else {
                c.lockHolding();
            }
            held[nheld++] = c;
        }
        return nheld;
    }

    /** Unlocks the {@code nheld} channels {@link #sellock} took, and forgets them. */
    private void selunlock(int nheld) {
        for (int k = 0; k < nheld; k++) {
            held[k].unlock();
            held[k] = null;
        }
    }
}
