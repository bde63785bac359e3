/**
 * The {@code gmp4j-agent} Java agent ({@link io.gmp4j.agent.PreemptAgent}): opt-in loop
 * preemption, a check of the running P's preempt request at the loop back-edges of the
 * packages it is given.
 */
package io.gmp4j.agent;
