/**
 * The seam between the scheduler and the network poller, for gmp4j's own modules (the
 * netpoll module implements it): not a user API, and it changes with the runtime without
 * notice. {@link io.gmp4j.runtime.spi.Netpoll} is what the scheduler calls (Go's
 * {@code netpoll}, {@code netpollBreak}, {@code netpollAnyWaiters}),
 * {@link io.gmp4j.runtime.spi.NetpollHost} what the poller calls back,
 * {@link io.gmp4j.runtime.spi.Landing} where a goroutine it readies lands, and
 * {@link io.gmp4j.runtime.spi.TaskBatch} the one list of runnable tasks that moves between
 * them. {@code io.gmp4j.runtime}'s package comment walks a network read through it.
 *
 * <p>{@link io.gmp4j.runtime.spi.Clock} is the clock seam of the synctest bubbles
 * ({@link io.gmp4j.runtime.Bubble}, in the runtime package because it keeps a goroutine's park
 * accounting): {@code io.gmp4j.time} and {@code io.gmp4j.context} read the time through it, and
 * the gmp4j-test module ({@code io.gmp4j.test.SyncTest}) starts and runs the bubbles. Neither is
 * a user API.
 *
 * <p>A package of its own rather than JPMS qualified exports: gmp4j runs on the class path
 * (its JDK seam needs {@code --add-opens java.base/java.lang=ALL-UNNAMED}, and users' builds
 * put the jars there), where {@code exports ... to} does not apply.
 */
package io.gmp4j.runtime.spi;
