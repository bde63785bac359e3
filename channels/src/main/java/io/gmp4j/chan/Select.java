package io.gmp4j.chan;

import io.gmp4j.runtime.Scheduler;
import io.gmp4j.runtime.Waiter;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.ThreadLocalRandom;
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
 * on a null channel never fires; a receive from a closed channel fires with
 * {@code ok() == false}; a send to a closed channel throws "send on closed channel"; the same
 * channel may appear in several cases. With no cases, {@code select()} blocks forever (Go's
 * {@code select {}}).
 *
 * <p>A {@code Select} is reusable and meant to be: {@link #reset()} it and add the cases again in
 * a loop, and it allocates nothing per round once its arrays have grown (except a runtime timer
 * when a timeout case is used). Not thread-safe: one thread uses it at a time.
 *
 * <h2>Design (Go's selectgo, {@code runtime/select.go})</h2>
 * Pass 0: a random poll order and a lock order (channels sorted by id); take every lock.
 * Pass 1: in poll order, take the first case that can proceed now. Pass 2: enqueue one sudog
 * per case, all sharing one {@link Waiter}, release the locks and park once. The first waker
 * wins the waiter's claim; wakers that lose skip that sudog. Pass 3: retake the locks and
 * remove the sudogs of the cases that did not fire.
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
    private Waiter waiter;
    private Object value;
    private boolean ok;

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
     * Adds a receive case: Go's {@code case v, ok := <-ch}. A null channel never fires.
     *
     * @return the case's index
     */
    public int recv(RecvChan<?> ch) {
        return add((Chan<?>) ch, false, null);
    }

    /**
     * Adds a send case: Go's {@code case ch <- value}. A null channel never fires.
     *
     * @return the case's index
     * @throws NullPointerException if value is null
     */
    public <T> int send(SendChan<T> ch, T value) {
        if (value == null) {
            throw new NullPointerException("send of null: null is what a closed channel yields");
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
            pollorder = new int[n];
            lockorder = new int[n];
        }
        chans[i] = c;
        isSend[i] = send;
        elems[i] = elem;
        ncases = i + 1;
        return i;
    }

    /** The value received by the receive case that fired last; null if it saw a closed channel. */
    @SuppressWarnings("unchecked")
    public <T> T value() {
        return (T) value;
    }

    /** For the receive case that fired last: true if a value was received, false if closed. */
    public boolean ok() {
        return ok;
    }

    /**
     * Blocks until one case can proceed, performs it and returns its index.
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
     * false (and v null) when the channel is closed.
     */
    public static <T> SelectCase onRecvOk(RecvChan<T> ch, BiConsumer<? super T, Boolean> body) {
        return new SelectCase(SelectCase.Kind.RECV_OK, (Chan<?>) ch, null, null, body);
    }

    /** A send case: {@code case ch <- value: body()}. */
    public static <T> SelectCase onSend(SendChan<T> ch, T value, Runnable body) {
        if (value == null) {
            throw new NullPointerException("send of null: null is what a closed channel yields");
        }
        return new SelectCase(SelectCase.Kind.SEND, (Chan<?>) ch, value, null, body);
    }

    /** A timeout case: {@code case <-time.After(d): body()}. */
    public static SelectCase onTimeout(Duration d, Runnable body) {
        return new SelectCase(SelectCase.Kind.TIMEOUT, null, null, d, body);
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

        // Pass 0: poll order (a uniform random permutation of the channel cases: Go's fairness)
        // and lock order (by channel id, so that two selects never lock in opposite orders).
        ThreadLocalRandom rnd = ThreadLocalRandom.current();
        int npoll = 0;
        for (int i = 0; i < ncases; i++) {
            if (chans[i] == null) {
                continue; // a null channel never fires; nor does the timeout pseudo-case here
            }
            int j = rnd.nextInt(npoll + 1);
            pollorder[npoll] = pollorder[j];
            pollorder[j] = i;
            npoll++;
        }
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
        sellock(npoll);

        // Pass 1: the first case, in poll order, that can proceed now.
        for (int k = 0; k < npoll; k++) {
            int i = pollorder[k];
            Chan<?> c = chans[i];
            if (isSend[i]) {
                if (c.isClosedLocked()) {
                    selunlock(npoll);
                    throw new ChannelClosedException("send on closed channel");
                }
                Sudog sg = c.recvq.dequeue();
                if (sg != null) {
                    Chan.sendToReceiver(sg, elems[i]);
                    selunlock(npoll);
                    sg.waiter.wake();
                    return fired(i);
                }
                if (c.hasRoom()) {
                    c.bufPut(elems[i]);
                    selunlock(npoll);
                    return fired(i);
                }
            } else {
                Sudog sg = c.sendq.dequeue();
                if (sg != null) {
                    Object v = c.recvFromSender(sg);
                    selunlock(npoll);
                    sg.waiter.wake();
                    return received(i, v, true);
                }
                if (c.hasBuffered()) {
                    Object v = c.bufTake();
                    selunlock(npoll);
                    return received(i, v, true);
                }
                if (c.isClosedLocked()) {
                    selunlock(npoll);
                    return received(i, null, false);
                }
            }
        }
        if (timeoutIndex >= 0 && timeoutNanos == 0) {
            selunlock(npoll);
            return fired(timeoutIndex);
        }
        if (!block) {
            selunlock(npoll);
            return DEFAULT;
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
        selunlock(npoll);
        String reason = npoll == 0 ? "select (no cases)" : "select";
        if (timeoutIndex >= 0) {
            w.park(reason, System.nanoTime() + timeoutNanos);
        } else {
            w.park(reason);
        }

        // Pass 3: take the other cases' sudogs off their queues, and clear every sudog (they
        // are reused by the next round and must not keep values or channels reachable).
        Object winner = w.claimedBy();
        Sudog won = winner instanceof Sudog sg ? sg : null;
        int i = won == null ? timeoutIndex : won.caseIndex;
        Object v = won == null ? null : won.elem;
        boolean success = won != null && won.success;
        sellock(npoll);
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
        selunlock(npoll);
        if (won == null) {
            return timeoutIndex; // the timeout claimed the wait (Waiter.TIMED_OUT)
        }
        if (isSend[i]) {
            if (!success) {
                throw new ChannelClosedException("send on closed channel");
            }
            return i;
        }
        return received(i, v, success);
    }

    private int fired(int i) {
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
     * Locks every distinct channel in lock order (a channel in several cases is locked once).
     * Only the first lock may yield while it waits: see {@link Chan#lockHolding}.
     */
    private void sellock(int n) {
        Chan<?> prev = null;
        for (int k = 0; k < n; k++) {
            Chan<?> c = chans[lockorder[k]];
            if (c != prev) {
                if (prev == null) {
                    c.lock();
                } else {
                    c.lockHolding();
                }
                prev = c;
            }
        }
    }

    private void selunlock(int n) {
        Chan<?> prev = null;
        for (int k = 0; k < n; k++) {
            Chan<?> c = chans[lockorder[k]];
            if (c != prev) {
                c.unlock();
                prev = c;
            }
        }
    }
}
