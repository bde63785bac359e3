/**
 * The GMP runtime: a port of Go's {@code runtime/proc.go} onto JDK virtual threads.
 *
 * <p>Start with {@link io.gmp4j.runtime.Scheduler}: its class comment is the design essay
 * (G, M, P; the wakep/spinning protocol and its two StoreLoad sequences; what differs from Go).
 * One file per concept: {@code RunQueue} (P's ring and runnext), {@code GlobalRunQueue},
 * {@code P} (status and ownership epochs), {@code M}, {@code G} (gopark/goready), {@code Timers}
 * and {@code RuntimeTimer}, {@code Sysmon}, {@code GoroutineRegistry}, {@code GoroutineDump},
 * {@code SchedStats}, {@code Syscalls} (entersyscall/exitsyscall and safe points),
 * {@code SpinLock}, {@code TimerSleeper} (the last idle M's sleep), {@code Carrier} (the
 * JDK seams).
 *
 * <h2>Decisions worth knowing before changing anything</h2>
 * <ul>
 *   <li><b>Locks that goroutines and Ms share are spin locks</b> ({@code SpinLock}), never
 *       {@code ReentrantLock} or {@code synchronized}: a goroutine waiting on a queued lock
 *       unmounts and becomes the waiter the lock hands over to, and if every M is queued behind
 *       it nothing can run it (a deadlock that {@code RuntimeTimerTest} reproduced).</li>
 *   <li><b>A P in user code can be taken away.</b> The JDK cannot preempt a continuation, so
 *       sysmon retakes a P whose goroutine ignores the preempt flag by CAS
 *       {@code USER -> IDLE}; every owner operation from goroutine code first CASes
 *       {@code USER -> RUNNING}. Status words carry an ownership epoch so that an M holding a
 *       stale P can never win such a CAS (see {@code P}).</li>
 *   <li><b>A goroutine's thread carries its G as its uncaught-exception handler</b>, read with a
 *       VarHandle: {@code G.current()} is one field read, with no map. The registry of live
 *       goroutines exists only for the dump, {@code NumGoroutine} and {@code checkdead}, and
 *       touches no other goroutine's memory when a goroutine starts or ends.</li>
 *   <li><b>runnext inheritance is capped by count</b> ({@code MAX_RUNNEXT_INHERITS = 3}), since
 *       sysmon cannot force Go's 10 ms slice.</li>
 *   <li><b>After dropping {@code nmspinning}, an M re-checks the global queue under the lock
 *       and then every P</b> (Go issue 43997): {@code WakeupTest} loses goroutines without it.
 *       And a {@code wakep} that finds no idle P sets {@code needspinning} and drops its
 *       {@code nmspinning} under the same lock (Go 1.21's {@code pidlegetSpinning}): without
 *       it, {@code GoChanTest} hung about once in 15 runs with work in the global queue and
 *       every M asleep.</li>
 * </ul>
 */
package io.gmp4j.runtime;
