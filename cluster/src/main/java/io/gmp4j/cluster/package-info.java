/**
 * Actors across JVMs: a {@link io.gmp4j.cluster.ClusterNode} joins Vert.x's clustered event bus
 * on Hazelcast (membership, failure detection and transport are theirs), gives actors
 * cluster-wide names, and makes remote actors plain {@link io.gmp4j.actor.ActorRef}s whose
 * messages travel in gmp4j's own bounded binary format ({@link io.gmp4j.cluster.WireCodec}),
 * never Java serialization.
 *
 * <pre>{@code
 * try (ActorSystem system = ActorSystem.create("a");
 *      ClusterNode node = ClusterNode.join(system, ClusterConfig.builder().allow(Greet.class).build())) {
 *     node.<Greet>lookup("greeter").ifPresent(g -> g.tell(new Greet("hi")));
 * }
 * }</pre>
 */
package io.gmp4j.cluster;
