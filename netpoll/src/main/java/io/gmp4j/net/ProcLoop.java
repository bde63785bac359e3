package io.gmp4j.net;

import io.gmp4j.runtime.G;
import io.gmp4j.runtime.spi.Landing;
import io.gmp4j.runtime.spi.NetpollHost;
import io.gmp4j.runtime.spi.TaskBatch;
import io.netty.channel.IoHandler;
import io.netty.channel.IoHandlerFactory;
import io.netty.channel.ManualIoEventLoop;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One P's event loop and the poll goroutine that owns it ({@link ProcPoller}, option (b)).
 *
 * <h2>The poll goroutine</h2>
 * It owns the Netty loop (a loop answers to one thread; here that thread is a goroutine, so any
 * M may run it) and loops: one turn of the loop, then park until wanted. A turn is
 * non-blocking ({@code runNow}) unless the scheduler asked it to block ({@link #pollBlocking}:
 * an M found nothing to do), in which case it blocks in the loop inside a syscall that puts
 * the P back on the idle list at once ({@link #blockInLoop}): the M, not the P, waits for I/O,
 * as Go's last idle M waits in {@code netpoll}. The goroutines a turn readies are collected
 * in a poll turn ({@link NetpollHost#beginTurn}) and enter the run queues as one batch.
 *
 * <h2>Wanting a turn</h2>
 * Every task handed to the loop from elsewhere (a read request, a write, a close, a
 * registration) ends in the handler's {@code wakeup}, which this class wraps: it marks the loop
 * {@link #dirty} and readies the parked poll goroutine. State moves
 * {@code IDLE -> QUEUED} by CAS in exactly one waker, which alone calls {@code ready}; the poll
 * goroutine publishes {@code IDLE} and then re-reads {@code dirty} (both volatile, a Dekker
 * pair with the waker's store of {@code dirty} and load of {@code state}), so a task handed over
 * while it was going to sleep is never left unpolled.
 */
final class ProcLoop {
    static final int IDLE = 0;
    static final int QUEUED = 1;
    static final int RUNNING = 2;
    static final int BLOCKED = 3;
    static final int DONE = 4;
    /** The states' names for schedtrace, indexed by the constants above. */
    private static final String[] STATES = {"idle", "queued", "running", "blocked", "done"};
    /** The task {@link #wakeupFor} queues to break a blocked turn. */
    private static final Runnable NOTHING = () -> {
    };

    final ProcPoller poller;
    final int pid;
    final Loop loop;
    /** IDLE (parked), QUEUED (readied), RUNNING (a non-blocking turn), BLOCKED (in the loop, no P), DONE. */
    private final AtomicInteger state = new AtomicInteger(RUNNING);
    /** Tasks were handed to the loop since its last turn began. */
    private volatile boolean dirty;
    private volatile boolean blockWanted;
    private volatile long blockDeadline;
    /** A timer was added that a blocked turn would sleep past: it must go back to findRunnable. */
    private volatile boolean replan;
    /** End of the last turn ({@link System#nanoTime}). */
    private volatile long lastPoll = System.nanoTime();
    /** Our channels registered on this loop and not closed: while there are none, idle Ms do not block here. */
    final AtomicInteger channels = new AtomicInteger();
    /** The poll goroutine; set before it first parks (the volatile state store publishes it). */
    private G g;
    final CountDownLatch done = new CountDownLatch(1);
    private final TaskBatch batch = new TaskBatch();
    private volatile long turns;
    private volatile long blocks;

    /** The loop, with a back reference for {@link ProcPoller#channelOpened}. */
    static final class Loop extends ManualIoEventLoop {
        final ProcLoop proc;

        Loop(ProcLoop proc, LoopGroup parent, IoHandlerFactory factory) {
            super(parent, null, factory);
            this.proc = proc;
        }
    }

    ProcLoop(ProcPoller poller, int pid, LoopGroup group) {
        this.poller = poller;
        this.pid = pid;
        IoHandlerFactory netty = poller.transport.factory();
        this.loop = new Loop(this, group, executor -> new WakingHandler(netty.newHandler(executor), this));
    }

    /** The poll goroutine's body. */
    void run() {
        loop.setOwningThread(Thread.currentThread());
        g = G.current();
        try {
            while (!loop.isTerminated()) {
                turn();
                if (loop.isShuttingDown()) {
                    if (!loop.isTerminated()) {
                        Thread.yield(); // tasks still queued: let their submitters run, then go on
                    }
                    continue;
                }
                parkUntilWanted();
            }
        } finally {
            state.set(DONE);
            for (Conn c : poller.conns) {
                if (c.ch.eventLoop() == loop) {
                    c.discard(); // the loop closed its channels on the way down
                }
            }
            done.countDown();
        }
    }

    private void turn() {
        boolean block = blockWanted;
        blockWanted = false;
        dirty = false; // from here on, a task handed over sets it again
        NetpollHost host = poller.host;
        try {
            long deadline = blockDeadline;
            long wait = deadline == 0 ? 0 : deadline - System.nanoTime();
            if (block && !loop.isShuttingDown() && (deadline == 0 || wait > 0)) {
                blocks++;
                replan = false; // before BLOCKED: from then on wakeupFor may set it
                state.set(BLOCKED);
                // The batch is injected after the syscall, with a P again: the first readied
                // goroutine then runs on this M next (Go's netpoll path in findRunnable).
                Object token = host.beginTurn(batch);
                try {
                    blockInLoop(host, deadline);
                } finally {
                    host.endTurn(token, batch);
                }
            } else {
                Object token = host.beginTurn(batch);
                try {
                    loop.runNow();
                } finally {
                    host.endTurn(token, batch);
                }
            }
        } catch (Throwable t) {
            System.err.println("gmp4j: netpoll turn of P" + pid + " failed:");
            t.printStackTrace();
        } finally {
            state.set(RUNNING);
            turns++;
            lastPoll = System.nanoTime();
        }
    }

    /**
     * The blocking turn, as a syscall that gives the P back at once: an M asked for it because
     * it found nothing to run, so the P goes to the idle list ({@link NetpollHost#entersyscallIdle})
     * rather than to a new spinning M, and the M, not the P, waits for I/O. {@code wait} 0 means
     * until I/O, a task or a wakeup.
     *
     * <p>While a wake-up of the loop readies no goroutine (the loop did all the work itself: a
     * {@link Relay}, a write, a task), the M waits in the loop again at once, as a Netty loop
     * thread does, instead of taking a P back, parking this goroutine and coming back through
     * {@code findRunnable} only to block here again. It leaves when a goroutine was readied
     * (it must run), at the deadline (a timer is due), when a new timer needs an earlier one
     * ({@link #wakeupFor}), and at shutdown. Work that appears elsewhere meanwhile does not need
     * this M: the P is on the idle list, and whoever readies a goroutine starts an M for it.
     */
    private void blockInLoop(NetpollHost host, long deadline) {
        long token = host.entersyscallIdle();
        try {
            long wait = deadline == 0 ? 0 : deadline - System.nanoTime();
            while (true) {
                loop.run(wait);
                if (!batch.isEmpty() || replan || loop.isShuttingDown()) {
                    return;
                }
                if (deadline != 0 && (wait = deadline - System.nanoTime()) <= 0) {
                    return;
                }
                // Another turn in the same syscall: counted here, the last one by turn().
                dirty = false; // the tasks handed over so far ran in the turn that just ended
                turns++;
                blocks++;
                lastPoll = System.nanoTime();
            }
        } finally {
            host.exitsyscall(token);
        }
    }

    private void parkUntilWanted() {
        state.set(IDLE); // volatile store, then the load of dirty: see the class comment
        if ((dirty || blockWanted) && state.compareAndSet(IDLE, RUNNING)) {
            return;
        }
        // Either nobody wants us yet, or a waker won IDLE -> QUEUED and readies us: park
        // consumes that readiness (at once if it came first).
        g.park("netpoll");
        state.set(RUNNING);
    }

    /**
     * A task was handed to the loop: make sure a turn runs it. Any thread. From a goroutine
     * that handed the loop a task (a write, a read request), the poll goroutine lands at the
     * tail of its P's queue, so every goroutine runnable there hands over its task first and
     * one turn sends them all (runnext would run a turn per write); no M is started for it.
     */
    void want() {
        dirty = true;
        if (claim()) {
            poller.host.ready(g, Landing.LOCAL_TAIL);
        }
    }

    /** Takes the right to ready the parked poll goroutine, once per park (IDLE -> QUEUED). */
    private boolean claim() {
        return state.get() == IDLE && state.compareAndSet(IDLE, QUEUED);
    }

    /**
     * See {@link ProcPoller#netpoll}, non-blocking: the poll goroutine goes in {@code list},
     * for the M in findRunnable, which has nothing else to run.
     */
    boolean pollNow(TaskBatch list) {
        if (state.get() == IDLE && (dirty || channels.get() > 0) && claim()) {
            poller.host.ready(g, list);
            return true;
        }
        return false;
    }

    /** See {@link ProcPoller#netpoll}, blocking until {@code deadline} (0: none). */
    boolean pollBlocking(long deadline, TaskBatch list) {
        if (state.get() != IDLE || channels.get() == 0) {
            return false;
        }
        blockDeadline = deadline;
        blockWanted = true;
        if (claim()) {
            poller.host.ready(g, list);
            return true;
        }
        blockWanted = false; // somebody else readied it for a plain turn
        return false;
    }

    /**
     * Sysmon: a P busy with other goroutines has not polled for a while. A plain ready: from
     * sysmon (not an M) it lands on the global queue, with {@code wakep}.
     */
    boolean pollIfStale(long staleBefore) {
        if (state.get() == IDLE && channels.get() > 0 && lastPoll - staleBefore < 0 && claim()) {
            g.ready();
            return true;
        }
        return false;
    }

    /** A timer due at {@code when} was added: re-plan a blocked turn that would sleep past it. */
    void wakeupFor(long when) {
        if (state.get() == BLOCKED) {
            long d = blockDeadline;
            if (d == 0 || d - when > 0) {
                replan = true; // before the task: the blocked M reads it after the loop returns
                // A task, not loop.wakeup(): Netty writes its eventfd only while the loop is
                // inside epoll_wait, so a bare wakeup just before the wait would be lost; a
                // queued task keeps the wait from starting (its canBlock check sees it).
                try {
                    loop.execute(NOTHING);
                } catch (RejectedExecutionException e) {
                    // shutting down: the loop is leaving its wait anyway
                }
            }
        }
    }

    long turns() {
        return turns;
    }

    boolean blocked() {
        return state.get() == BLOCKED;
    }

    /** For schedtrace's detail: the poll goroutine's state, so a loop stuck in one shows there. */
    String describe() {
        return "P" + pid + "{" + STATES[state.get()] + " channels=" + channels.get() + " turns=" + turns
                + " blocks=" + blocks + "}";
    }

    /** Netty's I/O handler with {@link #wakeup} also wanting a turn of the poll goroutine. */
    private static final class WakingHandler extends DelegatingIoHandler {
        private final ProcLoop proc;

        WakingHandler(IoHandler delegate, ProcLoop proc) {
            super(delegate);
            this.proc = proc;
        }

        @Override
        public void wakeup() {
            delegate.wakeup(); // breaks a blocked turn (Netty writes its eventfd only then)
            proc.want();       // readies a parked poll goroutine
        }
    }
}
