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
 * {@link io.gmp4j.actor.Props#withMailbox} (see {@link io.gmp4j.actor.Overflow}).
 *
 * <h2>Failure, after Erlang/OTP</h2>
 * An exception stops the actor (children first). Monitors ({@code ctx.watch}) receive one
 * {@link io.gmp4j.actor.Terminated}; links ({@code ctx.link}) kill the linked actor too, or
 * hand it an {@link io.gmp4j.actor.ExitSignal} if it traps exits; a
 * {@link io.gmp4j.actor.Supervisor} restarts children by its
 * {@link io.gmp4j.actor.SupervisionStrategy}, their {@link io.gmp4j.actor.Restart} types and
 * its restart intensity, and gives up (escalating) when they fail too often.
 *
 * <pre>{@code
 * ChildSpec<String> worker = ChildSpec.behavior("worker", (ctx, s) -> {
 *     if (s.isEmpty()) throw new IllegalArgumentException("empty");
 *     return Behavior.same();
 * });
 * Supervisor sup = system.spawnSupervisor(SupervisorSpec.builder()
 *         .strategy(SupervisionStrategy.ONE_FOR_ONE)
 *         .intensity(3, Duration.ofSeconds(5))
 *         .child(worker)
 *         .build());
 * sup.child(worker).tell("");        // the worker fails and is restarted...
 * sup.child(worker).tell("work");    // ...behind the same reference
 *
 * system.spawn(Behavior.setup(ctx -> {
 *     ctx.trapExits(true);
 *     ctx.link(sup.ref());           // told, not killed, if the supervisor gives up
 *     return (c, msg) -> msg instanceof ExitSignal e ? Behavior.stopped() : Behavior.same();
 * }));
 * }</pre>
 */
package io.gmp4j.actor;
