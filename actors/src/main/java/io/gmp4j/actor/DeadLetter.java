package io.gmp4j.actor;

/**
 * A message that could not be delivered: its recipient had stopped (or stopped with the
 * message still in its mailbox), or it was a second answer to an {@code ask}. Observe them with
 * {@link ActorSystem#onDeadLetter} or {@link ActorSystem#deadLetters(int)}, count them with
 * {@link ActorSystem#deadLetterCount()}.
 *
 * <pre>{@code
 * system.onDeadLetter(d -> System.err.println("undelivered " + d.message() + " to " + d.recipient().name()));
 * }</pre>
 *
 * @param message   the message
 * @param recipient the actor it was sent to
 */
public record DeadLetter(Object message, ActorRef<?> recipient) {
}
