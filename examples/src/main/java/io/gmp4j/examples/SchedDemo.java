package io.gmp4j.examples;

import io.gmp4j.Go;
import io.gmp4j.GoRuntime;
import io.gmp4j.Syscall;
import io.gmp4j.SchedStats;
import io.gmp4j.chan.Chan;
import io.gmp4j.sync.WaitGroup;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static io.gmp4j.Go.go;

/**
 * A small program that puts the scheduler through its paces and shows what it did, the way
 * {@code GODEBUG=schedtrace=100} does for a Go program:
 * <ol>
 *   <li>fan-out: 200,000 goroutines spawned from one goroutine, so the other Ps must steal;</li>
 *   <li>ping-pong: pairs of goroutines waking each other, served from the runnext slot;</li>
 *   <li>syscalls: goroutines inside {@code Syscall.blocking} beside CPU-bound goroutines that
 *       reach safe points ({@code Go.checkPreempt()});</li>
 *   <li>a goroutine that never reaches a safe point: sysmon asks it to yield, then hands its P
 *       to another M so that the others still run (the handoff counter).</li>
 * </ol>
 * Usage: {@code ./gmp4j run sched [--procs N] [--trace-ms M]}.
 */
final class SchedDemo {
    private SchedDemo() {
    }

    static final String USAGE = "usage: ./gmp4j run sched [--procs N] [--trace-ms M]";

    /** The parsed command line: {@code procs} Ps, a schedtrace line every {@code traceMs} (0: none). */
    record Options(int procs, long traceMs) {
    }

    /**
     * Parses the flags.
     *
     * @throws IllegalArgumentException with the one-line message for the user
     */
    static Options parse(String... args) {
        int procs = Runtime.getRuntime().availableProcessors();
        long traceMs = 100;
        for (int i = 0; i < args.length; i++) {
            String flag = args[i];
            if (!flag.equals("--procs") && !flag.equals("--trace-ms")) {
                throw new IllegalArgumentException("unknown flag " + flag);
            }
            if (i + 1 == args.length) {
                throw new IllegalArgumentException(flag + " needs a value");
            }
            String value = args[++i];
            long v;
            try {
                v = Long.parseLong(value);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(flag + " " + value + ": not a number");
            }
            if (flag.equals("--procs")) {
                if (v < 1 || v > Integer.MAX_VALUE) {
                    throw new IllegalArgumentException("--procs " + value + ": must be at least 1");
                }
                procs = (int) v;
            } else {
                if (v < 0) {
                    throw new IllegalArgumentException("--trace-ms " + value + ": must be 0 (off) or more");
                }
                traceMs = v;
            }
        }
        return new Options(procs, traceMs);
    }

    static void main(String[] args) {
        Options o;
        try {
            o = parse(args);
        } catch (IllegalArgumentException e) {
            System.err.println("sched: " + e.getMessage() + "\n" + USAGE);
            System.exit(2);
            return;
        }
        int procs = o.procs();
        long traceMs = o.traceMs();
        try (GoRuntime rt = GoRuntime.builder().name("sched-demo").maxProcs(procs).schedtrace(traceMs).build()) {
            rt.main(() -> {
                fanOut(200_000);
                pingPong(4, 100_000);
                syscalls(8);
                stuck();
            });
            SchedStats s = rt.stats();
            System.out.println();
            System.out.println("final: " + s.schedtrace());
            System.out.println("counters: " + s.counters());
        }
    }

    /** Go's "go f()" in a loop: the spawning P overflows to the global queue, others steal. */
    private static void fanOut(int n) {
        long t0 = System.nanoTime();
        AtomicLong sum = new AtomicLong();
        WaitGroup wg = new WaitGroup();
        wg.add(n);
        for (int i = 0; i < n; i++) {
            int k = i;
            go(() -> {
                sum.addAndGet(k);
                wg.done();
            });
        }
        wg.await();
        System.out.printf("fan-out: %,d goroutines, sum=%,d, %.1f ms%n", n, sum.get(), (System.nanoTime() - t0) / 1e6);
    }

    /**
     * Pairs of goroutines trading a token over unbuffered channels: each send readies the
     * receiver into the sender's runnext, so a pair stays on one P.
     */
    private static void pingPong(int pairs, int rounds) {
        long t0 = System.nanoTime();
        WaitGroup wg = new WaitGroup();
        for (int p = 0; p < pairs; p++) {
            Chan<Integer> ping = new Chan<>();
            Chan<Integer> pong = new Chan<>();
            wg.go(() -> {
                for (int i = 0; i < rounds; i++) {
                    pong.send(ping.recv());
                }
            });
            wg.go(() -> {
                for (int i = 0; i < rounds; i++) {
                    ping.send(i);
                    pong.recv();
                }
            });
        }
        wg.await();
        double ns = (System.nanoTime() - t0) / (double) (pairs * rounds * 2);
        System.out.printf("ping-pong: %d pairs x %,d rounds, %.0f ns per hand-over%n", pairs, rounds, ns);
    }

    /** Goroutines blocked in a syscall while the rest keep computing: Ps are handed off. */
    private static void syscalls(int n) {
        long t0 = System.nanoTime();
        WaitGroup wg = new WaitGroup();
        wg.add(n * 2);
        for (int i = 0; i < n; i++) {
            go(() -> {
                try {
                    Syscall.blocking(() -> Thread.sleep(50)); // a call that blocks its carrier
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                wg.done();
            });
            go(() -> {
                long x = 0;
                for (int k = 0; k < 2_000_000; k++) {
                    x += k * 31L;
                    if ((k & 0xffff) == 0) {
                        Go.checkPreempt();
                    }
                }
                if (x == 42) {
                    System.out.println();
                }
                wg.done();
            });
        }
        wg.await();
        System.out.printf("syscalls: %d blocking calls beside %d CPU goroutines, %.1f ms%n", n, n,
                (System.nanoTime() - t0) / 1e6);
    }

    /**
     * One goroutine spins 200 ms without a safe point while 1,000 short goroutines wait to run:
     * after sysmon's preempt request goes unanswered for 10 ms, its P is handed off.
     */
    private static void stuck() {
        long t0 = System.nanoTime();
        WaitGroup wg = new WaitGroup();
        wg.add(1 + 1_000);
        go(() -> {
            long until = System.nanoTime() + 200_000_000L;
            while (System.nanoTime() < until) {
                Thread.onSpinWait(); // no safe point: cannot be preempted cooperatively
            }
            wg.done();
        });
        long[] doneAt = new long[1];
        AtomicInteger left = new AtomicInteger(1_000);
        for (int i = 0; i < 1_000; i++) {
            go(() -> {
                if (left.decrementAndGet() == 0) {
                    doneAt[0] = System.nanoTime();
                }
                wg.done();
            });
        }
        wg.await();
        System.out.printf("stuck goroutine: the other 1,000 finished after %.1f ms while it spun for 200 ms%n",
                (doneAt[0] - t0) / 1e6);
    }
}
