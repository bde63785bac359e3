/**
 * Goroutines: the API of the gmp4j runtime.
 *
 * <p>{@link io.gmp4j.Go} starts goroutines on the process-wide runtime ({@code Go.go(f)} is Go's
 * {@code go f()}); {@link io.gmp4j.GoRuntime} builds independent runtimes (GOMAXPROCS, names,
 * a seed, a panic handler) and reads them: {@link io.gmp4j.SchedStats} (Go's schedtrace and the
 * scheduler's counters), {@link io.gmp4j.Metrics} (Go's {@code runtime/metrics} names),
 * {@link io.gmp4j.LeakedGoroutine} (Go's goroutine leak profile) and a goroutine dump.
 * {@link io.gmp4j.Syscall} marks a call that blocks its carrier thread, so the runtime hands
 * its P to another thread; {@link io.gmp4j.Tunable} lists every {@code gmp4j.*} system
 * property. Channels, select, timers, sync and context are in the channels module
 * ({@code io.gmp4j.chan} and its siblings).
 *
 * <p>{@code io.gmp4j.runtime} beneath it is internal: the scheduler itself and its contracts
 * with gmp4j's other modules.
 */
package io.gmp4j;
