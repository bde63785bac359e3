package io.gmp4j.runtime;

import io.gmp4j.runtime.spi.Landing;
import io.gmp4j.runtime.spi.NetpollHost;
import io.gmp4j.runtime.spi.TaskBatch;

/**
 * The {@link NetpollHost} a runtime hands its poller at the attach
 * ({@link Scheduler#attachNetpoll}): each method is one package-private scheduler operation, so
 * those stay off the runtime's public API. One per attach; stateless beyond its scheduler.
 */
final class SchedNetpollHost implements NetpollHost {
    private final Scheduler sched;

    SchedNetpollHost(Scheduler sched) {
        this.sched = sched;
    }

    @Override
    public Scheduler scheduler() {
        return sched;
    }

    @Override
    public Object beginTurn(TaskBatch turn) {
        return sched.beginTurn(turn);
    }

    @Override
    public void endTurn(Object token, TaskBatch turn) {
        sched.endTurn(token, turn);
    }

    @Override
    public void ready(G g, Landing where) {
        if (where == null) {
            throw new NullPointerException("ready: null landing");
        }
        sched.ready(g, where);
    }

    @Override
    public void ready(G g, TaskBatch list) {
        if (list == null) {
            throw new NullPointerException("ready: null list");
        }
        sched.ready(g, list);
    }

    @Override
    public long entersyscallIdle() {
        return Syscalls.enter(sched, Syscalls.RELEASE_IDLE);
    }

    @Override
    public void exitsyscall(long token) {
        sched.exitsyscall(token);
    }

    @Override
    public int currentPid() {
        return sched.currentPid();
    }

    @Override
    public void unpinCurrentThread() {
        sched.unpinCurrentThread();
    }

    @Override
    public String toString() {
        return "netpoll host of " + sched;
    }
}
