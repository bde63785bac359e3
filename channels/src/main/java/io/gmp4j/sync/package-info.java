/**
 * Go's {@code sync} package, and {@code golang.org/x/sync}'s {@code semaphore} and
 * {@code errgroup}, for gmp4j: {@link io.gmp4j.sync.Mutex}, {@link io.gmp4j.sync.RWMutex},
 * {@link io.gmp4j.sync.WaitGroup}, {@link io.gmp4j.sync.Once},
 * {@link io.gmp4j.sync.Semaphore} and {@link io.gmp4j.sync.ErrGroup}.
 *
 * <p>Every wait parks through the runtime's {@link io.gmp4j.runtime.Waiter}: from a goroutine
 * it parks the goroutine (its wait reason shows in the dump, and the deadlock detector counts
 * it as asleep); from any other thread it parks that thread. Internal locks are short spin
 * locks, never held across a park. All types work from goroutines and platform threads alike.
 */
package io.gmp4j.sync;
