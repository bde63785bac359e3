package com.example.consumer;

import static io.gmp4j.Go.go;

import io.gmp4j.actor.ActorRef;
import io.gmp4j.actor.ActorSystem;
import io.gmp4j.actor.Behavior;
import io.gmp4j.chan.Chan;
import io.gmp4j.chan.Select;
import io.gmp4j.sync.WaitGroup;
import java.time.Duration;

/**
 * A small program on gmp4j: a producer goroutine hands 1..n to worker goroutines over a
 * channel, the workers send the squares on another, the main goroutine receives them in a
 * select (with a timeout case as a watchdog) and tells each to a counter actor, then asks the
 * actor for the total.
 */
public final class Squares {
    /** The counter actor's messages. */
    sealed interface Msg permits Add, Total {}

    /** Adds {@code n} to the sum. */
    record Add(long n) implements Msg {}

    /** Asks for the count and sum so far. */
    record Total(ActorRef<Result> replyTo) implements Msg {}

    /**
     * What the counter saw.
     *
     * @param count the squares added
     * @param sum   their sum
     */
    public record Result(long count, long sum) {}

    private Squares() {
    }

    /** The counter: a behaviour actor whose state is its behaviour's arguments. */
    static Behavior<Msg> counter(long count, long sum) {
        return (ctx, msg) -> switch (msg) {
            case Add a -> counter(count + 1, sum + a.n());
            case Total t -> {
                t.replyTo().tell(new Result(count, sum));
                yield Behavior.same();
            }
        };
    }

    /** 1² + 2² + ... + n², the answer {@link #run} must find. */
    public static long expectedSum(int n) {
        return (long) n * (n + 1) * (2L * n + 1) / 6;
    }

    /**
     * Squares 1..n on {@code workers} goroutines and sums them in an actor.
     *
     * @throws IllegalArgumentException if n is negative or workers is not positive
     * @throws IllegalStateException    if no square arrives for ten seconds
     */
    public static Result run(int n, int workers) {
        if (n < 0 || workers < 1) {
            throw new IllegalArgumentException("need n >= 0 and workers >= 1, got n=" + n + ", workers=" + workers);
        }
        try (ActorSystem system = ActorSystem.builder().name("squares").maxProcs(2).build()) {
            ActorRef<Msg> counter = system.spawn(counter(0, 0));
            Result[] result = new Result[1];
            system.runtime().main(() -> {
                Chan<Integer> jobs = new Chan<>(64);
                Chan<Long> squares = new Chan<>(64);
                go(() -> {
                    for (int i = 1; i <= n; i++) {
                        jobs.send(i);
                    }
                    jobs.close();
                });
                WaitGroup wg = new WaitGroup();
                for (int w = 0; w < workers; w++) {
                    wg.go(() -> {
                        for (int i : jobs) {
                            squares.send((long) i * i);
                        }
                    });
                }
                go(() -> {
                    wg.await();
                    squares.close();
                });

                Select s = new Select();
                while (true) {
                    s.reset();
                    int square = s.recv(squares);
                    int stalled = s.timeout(Duration.ofSeconds(10));
                    int fired = s.select();
                    if (fired == stalled) {
                        throw new IllegalStateException("no square for 10 s");
                    }
                    if (!s.ok()) {
                        break; // squares closed: every worker is done
                    }
                    counter.tell(new Add(s.<Long>value()));
                }
                // Messages from one sender arrive in order: the Total comes after every Add.
                result[0] = counter.<Result>ask(Total::new, Duration.ofSeconds(10)).get();
            });
            return result[0];
        }
    }

    /** {@code java -jar gmp4j-consumer.jar [n [workers]]}: prints the count and the sum, exits 1 if wrong. */
    public static void main(String[] args) {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        int workers = args.length > 1 ? Integer.parseInt(args[1]) : 4;
        Result r = run(n, workers);
        boolean ok = r.count() == n && r.sum() == expectedSum(n);
        System.out.printf("squares 1..%d on %d workers: count=%d sum=%d %s%n",
                n, workers, r.count(), r.sum(), ok ? "ok" : "WRONG, expected sum=" + expectedSum(n));
        if (!ok) {
            System.exit(1);
        }
    }
}
