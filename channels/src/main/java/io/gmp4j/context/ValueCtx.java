package io.gmp4j.context;

import io.gmp4j.chan.RecvChan;
import java.time.Instant;
import java.util.Optional;

/** Go's {@code valueCtx}: one key/value pair on top of its parent. */
final class ValueCtx implements Context {
    final Context parent;
    private final Object key;
    private final Object val;

    ValueCtx(Context parent, Object key, Object val) {
        this.parent = parent;
        this.key = key;
        this.val = val;
    }

    @Override
    public RecvChan<Void> done() {
        return parent.done();
    }

    @Override
    public ContextException err() {
        return parent.err();
    }

    @Override
    public Optional<Instant> deadline() {
        return parent.deadline();
    }

    @Override
    public Object value(Object k) {
        // Iterative walk: a long chain of values must not cost stack depth.
        Context c = this;
        while (true) {
            if (c instanceof ValueCtx v) {
                if (v.key.equals(k)) {
                    return v.val;
                }
                c = v.parent;
            } else if (c instanceof CancelCtx cc) {
                c = cc.parent;
            } else {
                return c.value(k);
            }
        }
    }

    @Override
    public String toString() {
        return parent + ".WithValue(" + key + ", " + val + ")";
    }
}
