package io.gmp4j.actor;

import java.time.Duration;
import java.util.function.Function;

/**
 * The address of an actor: the only way to talk to it. Thread-safe; callable from goroutines,
 * actors and any other thread.
 *
 * <pre>{@code
 * try (ActorSystem system = ActorSystem.create("demo")) {
 *     ActorRef<String> printer = system.spawn((ctx, s) -> {
 *         System.out.println(s);
 *         return Behavior.same();
 *     });
 *     printer.tell("hello");
 * }
 * }</pre>
 *
 * @param <T> the type of message the actor accepts
 */
public interface ActorRef<T> {
    /**
     * Sends {@code msg}, fire and forget. Never blocks on an unbounded mailbox (the default).
     * Messages from one sender arrive in the order sent. A message to a stopped actor becomes a
     * {@link DeadLetter}. A message to an idle actor schedules it: from a goroutine or from
     * another actor, on the sender's P, to run next (Go's runnext).
     *
     * <p>To a full bounded mailbox ({@link Props#withMailbox}), the actor's {@link Overflow}
     * policy applies: {@code BLOCK} parks a goroutine or thread sender until there is room (a
     * behaviour actor sender gets {@code FAIL} instead: it must never block its M), {@code FAIL}
     * throws {@link MailboxFullException}, {@code DROP} makes the message a dead letter.
     *
     * <pre>{@code
     * ref.tell("ping");
     * }</pre>
     *
     * @throws NullPointerException if msg is null
     */
    void tell(T msg);

    /**
     * Request-response: builds a message that carries a one-shot reply address, sends it, and
     * returns the pending answer. The answer fails with {@link AskTimeoutException} if none
     * comes within {@code timeout}, and with {@link ActorStoppedException} if this actor stops
     * (or had stopped) before answering. If the request meets a full bounded mailbox whose
     * policy throws, the answer fails with {@link MailboxFullException}; one that is dropped
     * (policy {@code DROP}) is a dead letter and the answer times out.
     *
     * <pre>{@code
     * record Get(ActorRef<Integer> replyTo) {}
     * int n = counter.<Integer>ask(Get::new, Duration.ofSeconds(1)).get();   // blocks a goroutine
     * }</pre>
     *
     * @param msgFactory builds the message from the reply address
     * @param timeout    how long to wait for the answer; positive
     * @param <R>        the answer's type
     * @return the pending answer: wait with {@link Reply#get()}, select on
     *     {@link Reply#channel()}, or {@link Reply#pipeTo} an actor
     */
    <R> Reply<R> ask(Function<ActorRef<R>, T> msgFactory, Duration timeout);

    /**
     * Asks the actor to stop. A behaviour actor stops before its next message, a process actor
     * at its next {@code receive}. Its children stop first; then its name is freed, its
     * watchers receive {@link Terminated}, linked actors a normal exit signal (which kills
     * none), and messages left in its mailbox become dead letters. Does nothing if it has
     * stopped already; does not wait. A supervised child's stable reference stops the current
     * incarnation, which a {@link Restart#PERMANENT} child's supervisor starts again.
     *
     * <pre>{@code
     * ref.stop();
     * }</pre>
     */
    void stop();

    /**
     * The actor's name: the registered one, or a generated {@code $<id>} for an anonymous actor.
     *
     * <pre>{@code
     * System.out.println(ref.name());
     * }</pre>
     */
    String name();

    /**
     * False once the actor has stopped completely (children stopped, watchers told).
     *
     * <pre>{@code
     * if (!ref.isAlive()) { ... }
     * }</pre>
     */
    boolean isAlive();
}
