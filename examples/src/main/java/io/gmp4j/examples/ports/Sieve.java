package io.gmp4j.examples.ports;

import io.gmp4j.Go;
import io.gmp4j.chan.Chan;
import io.gmp4j.chan.RecvChan;
import io.gmp4j.chan.Select;
import io.gmp4j.chan.SendChan;
import io.gmp4j.context.Cancelable;
import io.gmp4j.context.Context;
import java.util.function.IntConsumer;
import java.util.function.Supplier;

/**
 * Go's concurrent prime sieve ({@code doc/play/sieve.go}), function for function: a
 * {@code generate} goroutine sends 2, 3, 4, ... and the caller daisy-chains one {@code filter}
 * goroutine per prime it finds. The Go program never stops its goroutines (it exits); here
 * every send and receive also selects on {@code ctx.Done()}, so canceling the context once the
 * primes are printed ends the whole chain.
 *
 * <p>{@code ./gmp4j run sieve [-n 10]} prints the first n primes, one a line.
 */
public final class Sieve {
    private Sieve() {
    }

    /** {@code func generate(ctx, ch chan<- int)}: sends the sequence 2, 3, 4, ... to ch. */
    static void generate(Context ctx, SendChan<Integer> ch) {
        Select s = new Select();
        for (int i = 2; ; i++) {
            s.reset();
            s.send(ch, i);                                    // case ch <- i:
            int done = s.recv(ctx.done());                    // case <-ctx.Done(): return
            if (s.select() == done) {
                return;
            }
        }
    }

    /**
     * {@code func filter(ctx, in <-chan int, out chan<- int, prime int)}: copies the values
     * from in to out, removing those divisible by prime.
     */
    static void filter(Context ctx, RecvChan<Integer> in, SendChan<Integer> out, int prime) {
        Select s = new Select();
        while (true) {
            s.reset();
            int got = s.recv(in);                             // i := <-in
            s.recv(ctx.done());
            if (s.select() != got) {
                return;
            }
            int i = s.<Integer>value();
            if (i % prime != 0) {
                s.reset();
                s.send(out, i);                               // out <- i
                int done = s.recv(ctx.done());
                if (s.select() == done) {
                    return;
                }
            }
        }
    }

    /**
     * Go's {@code main}: the prime sieve, daisy-chaining filter goroutines. Hands the first
     * {@code n} primes to {@code print} in order, then cancels the chain ({@code defer
     * cancel()}); its goroutines return soon after. Must run in a goroutine.
     *
     * @throws IllegalArgumentException if n is negative
     */
    public static void sieve(int n, IntConsumer print) {
        if (n < 0) {
            throw new IllegalArgumentException("sieve: negative count of primes: " + n);
        }
        try (Cancelable c = Context.withCancel(Context.background())) {
            Context ctx = c.ctx();
            Chan<Integer> ch = new Chan<>();                  // ch := make(chan int)
            Chan<Integer> first = ch;
            Go.go(() -> generate(ctx, first));                // go generate(ctx, ch)
            for (int i = 0; i < n; i++) {
                int prime = ch.recv();                        // prime := <-ch
                print.accept(prime);                          // fmt.Println(prime)
                Chan<Integer> ch1 = new Chan<>();             // ch1 := make(chan int)
                RecvChan<Integer> in = ch;
                Go.go(() -> filter(ctx, in, ch1, prime));     // go filter(ctx, ch, ch1, prime)
                ch = ch1;                                     // ch = ch1
            }
        }
    }

    /** {@code ./gmp4j run sieve [-n N]}: prints the first N primes (default 10). */
    public static void main(String[] args) {
        Flags flags = new Flags("sieve");
        Supplier<Integer> n = flags.intFlag("n", 10, "how many primes to print");
        flags.parseOrExit(args);
        if (n.get() < 0) {
            flags.exitWithUsage("-n must not be negative: " + n.get());
        }
        Go.main(() -> sieve(n.get(), System.out::println));
    }
}
