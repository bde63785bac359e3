package io.gmp4j.context;

import java.util.concurrent.atomic.AtomicBoolean;

/** A {@link Context#onDone} registration: a child of a cancelable context that runs a callback. */
final class DoneCallback implements Canceler, StopFunc {
    private final CancelCtx owner;
    private final Runnable callback;
    private final AtomicBoolean once = new AtomicBoolean();

    DoneCallback(CancelCtx owner, Runnable callback) {
        this.owner = owner;
        this.callback = callback;
    }

    @Override
    public void cancel(boolean removeFromParent, ContextException err) {
        if (once.compareAndSet(false, true)) {
            callback.run();
        }
    }

    @Override
    public boolean stop() {
        boolean stopped = once.compareAndSet(false, true);
        owner.removeChild(this);
        return stopped;
    }
}
