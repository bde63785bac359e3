package io.gmp4j.context;

/** A child of a cancelable context: a derived context or an {@link Context#onDone} callback (Go's canceler). */
interface Canceler {
    /** Cancels this child because its parent was canceled with {@code err}. Must not block. */
    void cancel(boolean removeFromParent, ContextException err);
}
