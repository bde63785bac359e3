/**
 * Go's {@code context} package for gmp4j: {@link io.gmp4j.context.Context} with
 * {@code background}, {@code todo}, {@code withCancel}, {@code withDeadline},
 * {@code withTimeout} and {@code withValue}. {@code done()} is a channel usable in a
 * {@link io.gmp4j.chan.Select}; deadlines run on the runtime's timers.
 */
package io.gmp4j.context;
