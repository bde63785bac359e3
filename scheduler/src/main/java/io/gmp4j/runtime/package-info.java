/**
 * The GMP runtime: a port of Go's {@code runtime/proc.go} onto JDK virtual threads.
 *
 * <p><b>Internal: not an API.</b> The public types of this package and its subpackages exist
 * for gmp4j's own modules (channels, netpoll, actors, the test, agent and Vert.x modules) and
 * change with the runtime without notice; programs use {@code io.gmp4j} ({@code Go},
 * {@code GoRuntime}, {@code SchedStats}, {@code Metrics}) and the packages built on it. No API
 * member names a type of this package ({@code ApiSurfaceTest} in the examples checks it). A
 * module reaches the scheduler under a runtime with {@link io.gmp4j.runtime.Scheduler#of}.
 * Why a marked package and not JPMS qualified exports: {@link io.gmp4j.runtime.spi}.
 *
 * <p>Start with {@link io.gmp4j.runtime.Scheduler}: its class comment is the design essay
 * (G, M, P; the wakep/spinning protocol and its two StoreLoad sequences; what differs from Go).
 * One file per concept: {@code RunQueue} (P's ring and runnext), {@code GlobalRunQueue},
 * {@code P} (status and ownership epochs), {@code M}, {@code G} (gopark/goready), {@code Timers}
 * and {@code RuntimeTimer}, {@code Sysmon}, {@code GoroutineRegistry}, {@code GoroutineDump},
 * {@code SchedStats}, {@code Syscalls} (entersyscall/exitsyscall and safe points),
 * {@code SpinLock}, {@code TimerSleeper} (the last idle M's sleep), {@code Carrier} (the
 * JDK seams). The seam to the network poller is the package {@link io.gmp4j.runtime.spi}
 * ({@code Netpoll}, {@code NetpollHost}, {@code Landing}, {@code TaskBatch}), for gmp4j's own
 * modules; {@code SchedNetpollHost} is the scheduler's side of it.
 *
 * <h2>Walk 1: a goroutine, from {@code go} to a channel wake-up</h2>
 * <ol>
 *   <li>{@code Go.go(f)} is {@code Scheduler.go} (Go's newproc): a {@code G} with an id from the
 *       M's {@code goidcache}, a virtual thread from the factory whose scheduler is this
 *       {@code Scheduler}, the G bound to it as its uncaught-exception handler, and
 *       {@code container.start}.</li>
 *   <li>Starting it, the JDK calls {@code execute(runContinuation)} on the caller's thread.
 *       From a goroutine, {@code Carrier.currentM()} is the caller's M; {@code ownerEnter}
 *       CASes its P from {@code USER} to {@code RUNNING}, {@code runqput(p, task, true)} puts
 *       the task in runnext (the old one to the ring's tail), and {@code wakep} starts a
 *       spinning M if a P is idle and no M spins. From another thread: the global queue and
 *       {@code wakep}.</li>
 *   <li>An M's {@code schedule} calls {@code findRunnable}: the global queue first every 61st
 *       tick (unless its head is the goroutine this M just yielded there: then at the next
 *       schedule), runnext (inheriting the slice, at most 3 in a row) and the local ring, the global
 *       queue, {@code netpoll(0)}, stealing; with nothing, it releases its P and stops
 *       ({@code stopm}).</li>
 *   <li>{@code run} sets the P to {@code USER} and calls the task: the continuation mounts on
 *       the M, which is now the goroutine's carrier.</li>
 *   <li>A receive on an empty channel enqueues a waiter under the channel lock and calls
 *       {@code G.park("chan receive")}: CAS {@code RUNNING -> WAITING}, then
 *       {@code LockSupport.park} yields the continuation; the task returns to {@code run},
 *       which takes the P back ({@code USER -> RUNNING}), and the M looks for work.</li>
 *   <li>A sender finds the waiter, hands the value over and calls {@code G.ready()}: CAS
 *       {@code WAITING -> READIED} and {@code LockSupport.unpark}, on which the JDK calls
 *       {@code execute} on the sender's thread: runnext of the sender's P, {@code wakep}.</li>
 *   <li>When the sender parks or ends, its M takes runnext; the receiver resumes in
 *       {@code park}, which consumes {@code READIED}, and the receive returns the value.</li>
 * </ol>
 *
 * <h2>Walk 2: a network read, from {@code Conn.read} to the poll and back (per-P loops)</h2>
 * <ol>
 *   <li>{@code Conn.read} finds nothing queued: {@code ConnReader} enqueues a waiter, asks the
 *       connection's loop for a read ({@code ch.eventLoop().execute(readTask)}) and parks
 *       ({@code Poller.park} counts it for {@code netpollAnyWaiters}, so checkdead waits).</li>
 *   <li>A task handed to the loop ends in its handler's {@code wakeup}, wrapped by
 *       {@code ProcLoop.want}: {@code dirty}, a CAS {@code IDLE -> QUEUED} of the parked poll
 *       goroutine, and {@code host.ready(g, Landing.LOCAL_TAIL)}: behind the goroutines
 *       runnable on the reader's P, no {@code wakep}.</li>
 *   <li>The poll goroutine runs a turn: {@code host.beginTurn(batch)}, {@code loop.runNow()}
 *       (a non-blocking epoll and the queued tasks), {@code host.endTurn}, and parks until
 *       wanted. Later turns come from {@code findRunnable}: an M with an empty queue calls
 *       {@code netpoll(pid, 0, list)}, whose {@code ProcLoop.pollNow} readies the poll
 *       goroutine into {@code list} ({@code host.ready(g, list)}), and the M runs it next; an
 *       M with nothing anywhere calls {@code netpoll(pid, delay, list)}, and the poll
 *       goroutine it runs blocks in {@code loop.run(wait)} inside
 *       {@code host.entersyscallIdle()}, its P back on the idle list; sysmon's
 *       {@code sysmonPoll} readies a loop unpolled for 10 ms.</li>
 *   <li>Bytes arrive: in the turn, {@code ConnHandler.channelRead} queues them and wakes the
 *       reader's waiter, {@code G.ready()}; the JDK calls {@code execute} on the poll
 *       goroutine's thread, which finds the goroutine's {@code turnBatch} and appends the
 *       reader to it.</li>
 *   <li>{@code host.endTurn} puts the last goroutine readied in this P's runnext and injects
 *       the rest ({@code injectglist}: the global queue and an M for each idle P, the rest
 *       local); back from a blocking turn without a P, all go to the global queue.</li>
 *   <li>The poll goroutine parks; the M runs the reader, whose {@code park} returns, and
 *       {@code Conn.read} copies the bytes out. With {@code -Dgmp4j.netpoll=thread} the loop's
 *       own platform thread runs the turns instead, {@code execute} recognises it
 *       ({@code turnThread}) and each turn's goroutines enter by {@code injectglist}; no M
 *       polls that loop.</li>
 * </ol>
 *
 * <h2>Decisions worth knowing before changing anything</h2>
 * <ul>
 *   <li><b>Locks that goroutines and Ms share are spin locks</b> ({@code SpinLock}), never
 *       {@code ReentrantLock} or {@code synchronized}: a goroutine waiting on a queued lock
 *       unmounts and becomes the waiter the lock hands over to, and if every M is queued behind
 *       it nothing can run it ({@code RuntimeTimerTest} holds that case).</li>
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
 *       and then every P</b> (Go issue 43997): without it goroutines are lost
 *       ({@code WakeupTest}). And a {@code wakep} that finds no idle P sets {@code needspinning}
 *       and drops its {@code nmspinning} under the same lock (Go 1.21's
 *       {@code pidlegetSpinning}): without it work can sit in the global queue with every M
 *       asleep ({@code NeedSpinningJcstress} and its broken twin).</li>
 * </ul>
 */
package io.gmp4j.runtime;
