package io.gmp4j.bench;

import io.gmp4j.runtime.G;
import io.gmp4j.runtime.Scheduler;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Function;

/**
 * Cost-floor microbenchmarks: one park/unpark switch between two goroutines, and the
 * scheduler's execute path for plain tasks. Each method runs inside a goroutine / virtual
 * thread and returns the elapsed nanoseconds of its measured loop.
 */
public final class Floor {
    private Floor() {
    }

    /**
     * Ping-pong between the calling goroutine and a new one through Go's gopark/goready
     * ({@link G#park}/{@link G#ready}); {@code rounds} round trips = {@code 2*rounds} switches.
     * Needs the goroutine registry (for {@link G#current()}).
     */
    public static long switchGPark(Scheduler sched, int rounds) {
        G a = G.current();
        if (a == null) {
            throw new IllegalStateException("floor-switch: G.current() is null; must run in a goroutine of a "
                    + "runtime with the goroutine registry on");
        }
        G b = sched.go(() -> {
            G me = G.current();
            for (int i = 0; i < rounds; i++) {
                me.park("pingpong");
                a.ready();
            }
        });
        long t0 = System.nanoTime();
        for (int i = 0; i < rounds; i++) {
            b.ready();
            a.park("pingpong");
        }
        return System.nanoTime() - t0;
    }

    private static final class Turn {
        volatile int turn;
    }

    /**
     * Ping-pong between the calling thread and a new one started by {@code starter}, with
     * {@link LockSupport#park}/{@link LockSupport#unpark} and a volatile turn flag;
     * {@code rounds} round trips = {@code 2*rounds} switches.
     */
    public static long switchLockSupport(Function<Runnable, Thread> starter, int rounds) {
        Thread a = Thread.currentThread();
        Turn t = new Turn();
        Thread b = starter.apply(() -> {
            for (int i = 0; i < rounds; i++) {
                while (t.turn != 1) {
                    LockSupport.park(t);
                }
                t.turn = 0;
                LockSupport.unpark(a);
            }
        });
        long t0 = System.nanoTime();
        for (int i = 0; i < rounds; i++) {
            t.turn = 1;
            LockSupport.unpark(b);
            while (t.turn != 0) {
                LockSupport.park(t);
            }
        }
        return System.nanoTime() - t0;
    }

    /**
     * Starts and joins {@link Bodies#SPAWN_N} empty virtual threads with {@code s} (the
     * {@code spawn} benchmark's body) and returns the elapsed nanoseconds.
     */
    public static long spawn(Spawner s) {
        long t0 = System.nanoTime();
        Bodies.verify("spawn", Bodies.spawn(s, Bodies.SPAWN_N), Bodies.SPAWN_N);
        return System.nanoTime() - t0;
    }

    /**
     * Runs the {@code skynet} benchmark's body (1,000,000 leaves) with {@code s} and returns the
     * elapsed nanoseconds: on the bare hook, what skynet costs with no scheduler behind it.
     */
    public static long skynet(Spawner s) {
        long t0 = System.nanoTime();
        Bodies.verify("skynet", Bodies.skynet(s, Bodies.SKYNET_SIZE, Bodies.SKYNET_DIV), Bodies.SKYNET_EXPECTED);
        return System.nanoTime() - t0;
    }

    /**
     * Submits {@code n} trivial plain tasks with {@code sched.execute} from the calling goroutine,
     * in batches of {@code batch} (each batch waits until its tasks ran: the last one unparks the
     * caller, so one park/unpark is amortised over a batch).
     */
    public static long execute(Scheduler sched, int n, int batch) {
        Thread me = Thread.currentThread();
        AtomicInteger left = new AtomicInteger();
        Runnable task = () -> {
            if (left.decrementAndGet() == 0) {
                LockSupport.unpark(me);
            }
        };
        long t0 = System.nanoTime();
        for (int done = 0; done < n; done += batch) {
            int k = Math.min(batch, n - done);
            left.set(k);
            for (int i = 0; i < k; i++) {
                sched.execute(task);
            }
            while (left.get() != 0) {
                LockSupport.park(left);
            }
        }
        return System.nanoTime() - t0;
    }
}
