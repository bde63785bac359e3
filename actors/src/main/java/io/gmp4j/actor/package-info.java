/**
 * Actors on the gmp4j runtime: behaviour actors that run as plain tasks on the scheduler's Ms
 * (Akka-typed style handlers), and process actors that run as goroutines (Erlang style
 * {@code receive} loops), behind one {@link io.gmp4j.actor.ActorRef}.
 *
 * <pre>{@code
 * try (ActorSystem system = ActorSystem.builder().name("app").maxProcs(2).build()) {
 *     ActorRef<String> printer = system.spawn((ctx, s) -> {
 *         System.out.println(s);
 *         return Behavior.same();
 *     });
 *     printer.tell("hello");
 * }
 * }</pre>
 *
 * <p>Start with {@link io.gmp4j.actor.ActorSystem}, {@link io.gmp4j.actor.Behavior} and
 * {@link io.gmp4j.actor.ProcessContext}. Mailboxes are unbounded unless spawned with
 * {@link io.gmp4j.actor.Props#withMailbox} (see {@link io.gmp4j.actor.Overflow}). Not in this
 * version: supervisors and restarts, links.
 */
package io.gmp4j.actor;
