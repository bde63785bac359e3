package io.gmp4j.net;

import io.gmp4j.runtime.spi.NetpollHost;
import io.gmp4j.runtime.spi.TaskBatch;
import io.netty.channel.Channel;
import io.netty.channel.EventLoopGroup;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The network poller as one Netty loop per P (option (b) of issue 4, {@code -Dgmp4j.netpoll=perp}):
 * each loop is owned by a poll goroutine ({@link ProcLoop}) that the scheduler's
 * {@link #netpoll} readies where Go polls the network: in {@code findRunnable} before stealing
 * (non-blocking), by an M that found nothing to do (blocking, inside a syscall that gives the
 * P back), and by sysmon when a busy P has not polled for 10 ms ({@link #sysmonPoll}).
 *
 * <p>Connections: a listener's accepted connections are spread over the loops round-robin
 * (Netty's child-group choice); a dial registers on the loop of the P the dialing goroutine
 * runs on. A goroutine may later run on another P: its loop is still polled, by whichever M
 * its poll goroutine runs on.
 */
final class ProcPoller extends Poller {
    private final ProcLoop[] loops;
    private final LoopGroup group;
    private final AtomicBoolean started = new AtomicBoolean();

    ProcPoller(NetpollHost host) {
        super(host);
        int n = sched.gomaxprocs();
        this.loops = new ProcLoop[n];
        this.group = new LoopGroup(loops);
        for (int i = 0; i < n; i++) {
            loops[i] = new ProcLoop(this, i, group);
        }
    }

    @Override
    void attached() {
        if (started.compareAndSet(false, true)) {
            for (ProcLoop l : loops) {
                sched.go(l::run);
            }
        }
    }

    @Override
    EventLoopGroup group() {
        return group;
    }

    /** The loop of the caller's P, else the next loop round-robin. */
    @Override
    EventLoopGroup dialLoop() {
        int pid = host.currentPid();
        return pid >= 0 && pid < loops.length ? loops[pid].loop : group.next();
    }

    @Override
    void channelOpened(Channel ch) {
        if (ch.eventLoop() instanceof ProcLoop.Loop l) {
            l.proc.channels.incrementAndGet();
            ch.closeFuture().addListener(f -> l.proc.channels.decrementAndGet());
        }
    }

    /**
     * Non-blocking ({@code delayNanos == 0}): readies, into {@code list}, the poll goroutine of
     * the caller's P's loop, or else of the first other loop that has something to poll: Go's
     * one netpoller sees every connection, and a loop whose P is busy or idle would otherwise
     * wait for sysmon. Blocking: readies every parked loop that has channels, its own P's
     * first, each to block in its loop until I/O, a task or the next timer: one M can wait in
     * one loop only, so each loop gets its own M. The M runs the last one; the P's hand-off as
     * that one enters its syscall starts Ms for the others.
     */
    @Override
    public void netpoll(int pid, long delayNanos, TaskBatch list) {
        int n = loops.length;
        if (delayNanos == 0) {
            for (int i = 0; i < n; i++) {
                if (loops[(pid + i) % n].pollNow(list)) {
                    return;
                }
            }
            return;
        }
        long deadline = delayNanos < 0 ? 0 : System.nanoTime() + delayNanos;
        if (deadline == 0 && delayNanos > 0) {
            deadline = 1; // 0 means "no deadline" to the loops
        }
        for (int i = 0; i < n; i++) {
            loops[(pid + i) % n].pollBlocking(deadline, list);
        }
    }

    @Override
    public boolean sysmonPoll(long staleBefore) {
        boolean any = false;
        for (ProcLoop l : loops) {
            any |= l.pollIfStale(staleBefore);
        }
        return any;
    }

    @Override
    public void netpollBreak(long when) {
        for (ProcLoop l : loops) {
            l.wakeupFor(when);
        }
    }

    @Override
    public boolean runsOnGoroutines() {
        return true;
    }

    /** Turns P {@code pid}'s loop has run, for tests. */
    long loopTurns(int pid) {
        return loops[pid].turns();
    }

    @Override
    int blockedLoops() {
        int n = 0;
        for (ProcLoop l : loops) {
            n += l.blocked() ? 1 : 0;
        }
        return n;
    }

    @Override
    String describeLoops() {
        StringBuilder sb = new StringBuilder("perp");
        for (ProcLoop l : loops) {
            sb.append(' ').append(l.describe());
        }
        return sb.toString();
    }

    @Override
    boolean terminated() {
        for (ProcLoop l : loops) {
            if (!l.loop.isTerminated()) {
                return false;
            }
        }
        return true;
    }

    @Override
    boolean awaitStopped(long millis) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        for (ProcLoop l : loops) {
            if (!l.done.await(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                return false;
            }
        }
        return terminated();
    }

    /**
     * Shuts every loop down and waits for the poll goroutines to finish them (the scheduler
     * calls this before it stops its Ms). A poller that never started (it lost the attach
     * race) has no goroutines: the calling thread takes the loops over and runs their shutdown.
     */
    @Override
    public void shutdown(long timeoutMillis) {
        long t = Math.max(1, timeoutMillis);
        for (ProcLoop l : loops) {
            l.loop.shutdownGracefully(0, t, TimeUnit.MILLISECONDS);
        }
        if (started.compareAndSet(false, true)) {
            for (ProcLoop l : loops) {
                l.loop.setOwningThread(Thread.currentThread());
                while (!l.loop.isTerminated()) {
                    l.loop.runNow();
                }
                l.done.countDown();
            }
            return;
        }
        try {
            awaitStopped(t);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
