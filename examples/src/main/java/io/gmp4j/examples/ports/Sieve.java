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
 * goroutine per prime it finds. The Go program never stops its goroutines (it exits). Here the
 * generator also selects on {@code ctx.Done()} and closes its channel when it returns, and each
 * filter closes its output when its input is closed ({@code defer close(out)}); so once the
 * primes are printed, the caller cancels the context and drains the last channel, and the close
 * travels down the chain until every goroutine has returned.
 *
 * <p>{@code ./gmp4j run sieve [-n 10]} prints the first n primes, one a line.
 */
public final class Sieve {
    private Sieve() {
    }

    /** {@code func generate(ctx, ch chan<- int)}: sends the sequence 2, 3, 4, ... to ch. */
    static void generate(Context ctx, SendChan<Integer> ch) {
        try {
            Select s = new Select();
            for (int i = 2; ; i++) {
                s.reset();
                s.send(ch, i);                                // case ch <- i:
                int done = s.recv(ctx.done());                // case <-ctx.Done(): return
                if (s.select() == done) {
                    return;
                }
            }
        } finally {
            ch.close();                                       // defer close(ch)
        }
    }

    /**
     * {@code func filter(in <-chan int, out chan<- int, prime int)}: copies the values from in
     * to out, removing those divisible by prime.
     */
    static void filter(RecvChan<Integer> in, SendChan<Integer> out, int prime) {
        try {
            for (int i : in) {                                // for i := range in {
                if (i % prime != 0) {
                    out.send(i);                              //   out <- i
                }
            }
        } finally {
            out.close();                                      // defer close(out)
        }
    }

    /**
     * Go's {@code main}: the prime sieve, daisy-chaining filter goroutines. Hands the first
     * {@code n} primes to {@code print} in order, then stops the chain: its goroutines have all
     * closed their channels when this returns (and return themselves right after). Must run in
     * a goroutine.
     *
     * @throws IllegalArgumentException if n is negative
     */
    public static void sieve(int n, IntConsumer print) {
        if (n < 0) {
            throw new IllegalArgumentException("sieve: negative count of primes: " + n);
        }
        Cancelable c = Context.withCancel(Context.background());
        Chan<Integer> ch = new Chan<>();                      // ch := make(chan int)
        Chan<Integer> first = ch;
        Go.go(() -> generate(c.ctx(), first));                // go generate(ctx, ch)
        try {
            for (int i = 0; i < n; i++) {
                int prime = ch.recv();                        // prime := <-ch
                print.accept(prime);                          // fmt.Println(prime)
                Chan<Integer> ch1 = new Chan<>();             // ch1 := make(chan int)
                RecvChan<Integer> in = ch;
                Go.go(() -> filter(in, ch1, prime));          // go filter(ch, ch1, prime)
                ch = ch1;                                     // ch = ch1
            }
        } finally {
            c.cancel();                                       // cancel(): the generator returns
            for (Integer ignored : ch) {                      // for range ch {}: until the chain is closed
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
