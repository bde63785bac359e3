package io.gmp4j.actor;

import java.time.Duration;
import java.util.function.Function;

/** The one-shot reply address an {@code ask} puts in its message: its first tell answers. */
final class ReplyRef<R> implements ActorRef<R> {
    private final Reply<R> reply;
    private final ActorCell<?> target;

    ReplyRef(Reply<R> reply, ActorCell<?> target) {
        this.reply = reply;
        this.target = target;
    }

    @Override
    public void tell(R msg) {
        if (msg == null) {
            throw new NullPointerException("tell: null message");
        }
        if (!reply.complete(msg, null)) {
            target.system.deadLetter(msg, this); // a second answer, or one after the timeout
        }
    }

    /** Fails the pending answer with {@code why}; false if it was complete already. */
    boolean fail(Throwable why) {
        return reply.complete(null, why);
    }

    @Override
    public <Q> Reply<Q> ask(Function<ActorRef<Q>, R> msgFactory, Duration timeout) {
        throw new UnsupportedOperationException("cannot ask the reply address of an ask");
    }

    @Override
    public void stop() {
        // nothing to stop
    }

    @Override
    public String name() {
        return "reply-to-ask-of-" + target.name();
    }

    @Override
    public boolean isAlive() {
        return !reply.isDone();
    }

    @Override
    public String toString() {
        return "ReplyRef[" + target.name() + "]";
    }
}
