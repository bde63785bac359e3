package io.gmp4j.actor;

/**
 * Thrown by {@link ActorRef#tell} when the recipient's bounded mailbox is full and its policy is
 * {@link Overflow#FAIL}, or its policy is {@link Overflow#BLOCK} and the sender runs directly on
 * an M (a behaviour actor), which must never block. Nothing was enqueued.
 *
 * <pre>{@code
 * try {
 *     worker.tell(job);
 * } catch (MailboxFullException e) {
 *     // shed the load: the worker is behind
 * }
 * }</pre>
 */
public class MailboxFullException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final String actor;
    private final int capacity;

    /** An exception for the mailbox of {@code actor}, holding at most {@code capacity} messages. */
    public MailboxFullException(String actor, int capacity) {
        super("mailbox of actor " + actor + " is full (capacity " + capacity + ")");
        this.actor = actor;
        this.capacity = capacity;
    }

    /** The name of the actor whose mailbox was full. */
    public String actor() {
        return actor;
    }

    /** The mailbox's capacity. */
    public int capacity() {
        return capacity;
    }
}
