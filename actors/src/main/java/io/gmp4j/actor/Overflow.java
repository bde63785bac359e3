package io.gmp4j.actor;

/**
 * What a bounded mailbox does with a message told while it is full
 * ({@link Props#withMailbox(int, Overflow)}).
 *
 * <pre>{@code
 * ActorRef<Job> worker = system.spawn(handler, Props.DEFAULT.withMailbox(64, Overflow.BLOCK));
 * }</pre>
 */
public enum Overflow {
    /**
     * The sender waits until there is room: a goroutine parks (goroutine dump reason
     * {@code "actor mailbox full"}), a platform thread parks its thread. Code running directly
     * on an M, which must never block its M (a behaviour actor's handler, a timer callback),
     * gets {@link #FAIL} instead: {@code tell} throws {@link MailboxFullException}; so does a
     * process actor telling its own full mailbox (it would wait for itself). If the actor
     * dies while senders wait, they are woken and their messages become dead letters.
     */
    BLOCK,
    /** {@code tell} throws {@link MailboxFullException}; nothing is enqueued. */
    FAIL,
    /** The message becomes a dead letter ({@link ActorSystem#deadLetterCount()}); tell returns. */
    DROP
}
