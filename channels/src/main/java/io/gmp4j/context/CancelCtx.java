package io.gmp4j.context;

import io.gmp4j.runtime.spi.Clock;
import io.gmp4j.runtime.ShortLock;
import io.gmp4j.GoRuntime;
import io.gmp4j.chan.Chan;
import io.gmp4j.chan.RecvChan;
import io.gmp4j.runtime.RuntimeTimer;
import io.gmp4j.runtime.Scheduler;
import java.time.Instant;
import java.util.HashSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Go's {@code cancelCtx} and {@code timerCtx} in one: a context that can be canceled, with an
 * optional deadline enforced by a runtime timer.
 *
 * <p>Cancel order, as in Go: set {@code err}, close {@code done}, stop the timer, cancel the
 * children, then detach from the parent. The children set is taken under the lock and
 * canceled outside it, so that locks are only ever nested parent-then-child. Nothing here
 * blocks: cancel runs from timer callbacks on an M.
 */
final class CancelCtx implements Context, Canceler {
    static final long NO_DEADLINE = Long.MIN_VALUE;

    final Context parent;
    /** The nearest cancelable ancestor that this context is registered with, or null. */
    private final CancelCtx registeredWith;
    private final long deadlineNanos;
    private final Instant deadlineAt;
    private final Chan<Void> done = new Chan<>();
    private final ShortLock guard = new ShortLock();
    /** Null while not done; written once, under guard, before done is closed. */
    private volatile ContextException err;
    // Guarded by guard.
    private Set<Canceler> children;
    private RuntimeTimer timer;

    CancelCtx(Context parent, long deadlineNanos, Instant deadlineAt) {
        this.parent = parent;
        this.registeredWith = nearest(parent);
        this.deadlineNanos = deadlineNanos;
        this.deadlineAt = deadlineAt;
    }

    /** Go's newCancelCtx + withDeadline. */
    static Cancelable withDeadline(Context parent, long nanos, Instant at) {
        Objects.requireNonNull(parent, "cannot create context from nil parent");
        long parentDl = deadlineNanosOf(parent);
        if (parentDl != NO_DEADLINE && parentDl - nanos <= 0) {
            return Context.withCancel(parent); // the parent's earlier deadline will do
        }
        CancelCtx c = new CancelCtx(parent, nanos, at);
        c.attach();
        if (nanos - Clock.nanoTime() <= 0) {
            c.cancel(true, DEADLINE_EXCEEDED); // deadline already passed
        } else {
            c.arm();
        }
        return c.cancelable();
    }

    /** The cancel function of this context, detaching it from its parent. */
    Cancelable cancelable() {
        return new Cancelable(this, () -> cancel(true, CANCELED));
    }

    /** Go's propagateCancel: registers with the nearest cancelable ancestor, or is canceled at once. */
    void attach() {
        CancelCtx p = registeredWith;
        if (p == null) {
            return; // background or todo: never canceled
        }
        if (!p.addChild(this)) {
            cancel(false, p.err());
        }
    }

    private void arm() {
        Scheduler s = Scheduler.current();
        if (s == null) {
            s = Scheduler.of(GoRuntime.defaultRuntime());
        }
        RuntimeTimer t = s.newTimer(() -> cancel(true, DEADLINE_EXCEEDED));
        t.reset(deadlineNanos); // outside the guard: no lock is ever held across the timer heap's
        boolean canceled;
        guard.lock();
        try {
            canceled = err != null;
            if (!canceled) {
                timer = t; // a later cancel finds it and stops it
            }
        } finally {
            guard.unlock();
        }
        if (canceled) {
            t.stop(); // canceled while arming: the timer is not needed (if it fired, cancel was a no-op)
        }
    }

    /** The nearest cancelable context at or above {@code c}, or null if none. */
    static CancelCtx nearest(Context c) {
        while (true) {
            if (c instanceof CancelCtx cc) {
                return cc;
            }
            if (c instanceof ValueCtx v) {
                c = v.parent;
            } else {
                return null;
            }
        }
    }

    /** The effective deadline of {@code c} as a nanoTime value, or {@link #NO_DEADLINE}. */
    static long deadlineNanosOf(Context c) {
        while (true) {
            if (c instanceof CancelCtx cc) {
                if (cc.deadlineNanos != NO_DEADLINE) {
                    return cc.deadlineNanos;
                }
                c = cc.parent;
            } else if (c instanceof ValueCtx v) {
                c = v.parent;
            } else {
                return NO_DEADLINE;
            }
        }
    }

    /** Adds a child to be canceled with this context; false (nothing added) if already done. */
    boolean addChild(Canceler child) {
        guard.lock();
        try {
            if (err != null) {
                return false;
            }
            if (children == null) {
                children = new HashSet<>();
            }
            children.add(child);
            return true;
        } finally {
            guard.unlock();
        }
    }

    void removeChild(Canceler child) {
        guard.lock();
        try {
            if (children != null) {
                children.remove(child);
            }
        } finally {
            guard.unlock();
        }
    }

    /** Number of registered children (for tests: a canceled child must not linger). */
    int childCount() {
        guard.lock();
        try {
            return children == null ? 0 : children.size();
        } finally {
            guard.unlock();
        }
    }

    @Override
    public void cancel(boolean removeFromParent, ContextException e) {
        Set<Canceler> kids;
        RuntimeTimer t;
        guard.lock();
        try {
            if (err != null) {
                return; // already canceled
            }
            err = e;
            kids = children;
            children = null;
            t = timer;
            timer = null;
        } finally {
            guard.unlock();
        }
        done.close();
        if (t != null) {
            t.stop();
        }
        if (kids != null) {
            for (Canceler k : kids) {
                k.cancel(false, e);
            }
        }
        if (removeFromParent && registeredWith != null) {
            registeredWith.removeChild(this);
        }
    }

    @Override
    public RecvChan<Void> done() {
        return done;
    }

    @Override
    public ContextException err() {
        return err;
    }

    @Override
    public Optional<Instant> deadline() {
        return deadlineNanos != NO_DEADLINE ? Optional.of(deadlineAt) : parent.deadline();
    }

    @Override
    public Object value(Object key) {
        return parent.value(key);
    }

    @Override
    public String toString() {
        return parent + (deadlineNanos != NO_DEADLINE ? ".WithDeadline(" + deadlineAt + ")" : ".WithCancel");
    }
}
