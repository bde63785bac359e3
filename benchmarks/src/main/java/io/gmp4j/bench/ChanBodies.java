package io.gmp4j.bench;

/**
 * The channel benchmark bodies, shared by every implementation: they make channels, select and
 * start goroutines only through a {@link BenchChan.Impl}, and join only through {@link Join}.
 * Each returns a result the caller verifies, so that a broken implementation fails loudly.
 * Each must be called from inside the implementation's context (a gmp4j goroutine, or a JDK
 * virtual thread for jdk and jox). No body closes a channel (the jdk queues cannot): every
 * goroutine knows how many values it handles, or stops at a sentinel.
 *
 * <p>Values are boxed Integers taken from {@link #BOXES}, so that no body allocates per message
 * (Go sends plain ints); threadring passes one mutable {@link Token}.
 */
public final class ChanBodies {
    /** {@code pingpong}: unbuffered round trips. */
    public static final int PINGPONG_N = 500_000;
    /** {@code buffered-1p1c} / {@code buffered-4p4c}: messages through one channel of capacity 1024. */
    public static final int BUFFERED_N = 2_000_000;
    public static final int BUFFERED_CAP = 1024;
    /** {@code select}: receives by one select over two unbuffered channels, half from each sender. */
    public static final int SELECT_N = 200_000;
    /** {@code sieve}: the first 2,000 primes; the 2,000th is 17,389. */
    public static final int SIEVE_PRIMES = 2_000;
    public static final int SIEVE_LAST = 17_389;
    /** {@code threadring}: 503 goroutines, 10,000,000 hops (--quick: 1,000,000). */
    public static final int RING_SIZE = 503;
    public static final int RING_HOPS = 10_000_000;
    public static final int RING_HOPS_QUICK = 1_000_000;

    /** Integer.valueOf(i) for i in 0 .. SIEVE_LAST, built once: the bodies send these. */
    static final Integer[] BOXES = new Integer[SIEVE_LAST + 1];

    static {
        for (int i = 0; i < BOXES.length; i++) {
            BOXES[i] = i;
        }
    }

    private ChanBodies() {
    }

    // =====================================================================================
    // pingpong
    // =====================================================================================

    /**
     * {@code n} round trips over two unbuffered channels: the caller sends the ball on
     * {@code ping}, the echo goroutine receives it and sends it back on {@code pong}.
     *
     * @return the round trips the echo goroutine counted (== n)
     */
    public static long pingpong(BenchChan.Impl impl, int n) {
        BenchChan<Integer> ping = impl.make(0);
        BenchChan<Integer> pong = impl.make(0);
        Join echoed = new Join(1);
        impl.spawner().spawn(() -> {
            long count = 0;
            for (int i = 0; i < n; i++) {
                pong.send(ping.recv());
                count++;
            }
            echoed.complete(count);
        });
        Integer ball = BOXES[7];
        for (int i = 0; i < n; i++) {
            ping.send(ball);
            if (pong.recv() != ball) {
                throw new AssertionError("pingpong: a different ball came back");
            }
        }
        return echoed.await();
    }

    // =====================================================================================
    // buffered
    // =====================================================================================

    /**
     * {@code producers} goroutines send {@code n} values in all (value of message i:
     * {@code i & 1023}) through one channel of capacity {@code cap}; {@code consumers}
     * goroutines receive {@code n / consumers} each and sum them.
     *
     * @return the sum of what the consumers received; see {@link #bufferedExpected}
     */
    public static long buffered(BenchChan.Impl impl, int producers, int consumers, int n, int cap) {
        if (n % producers != 0 || n % consumers != 0) {
            throw new IllegalArgumentException("n must divide by producers and consumers");
        }
        BenchChan<Integer> ch = impl.make(cap);
        Spawner s = impl.spawner();
        Join sent = new Join(producers);
        Join received = new Join(consumers);
        int perConsumer = n / consumers;
        for (int c = 0; c < consumers; c++) {
            s.spawn(() -> {
                long sum = 0;
                for (int i = 0; i < perConsumer; i++) {
                    sum += ch.recv();
                }
                received.complete(sum);
            });
        }
        int perProducer = n / producers;
        for (int p = 0; p < producers; p++) {
            int from = p * perProducer;
            s.spawn(() -> {
                for (int i = from; i < from + perProducer; i++) {
                    ch.send(BOXES[i & 1023]);
                }
                sent.complete(0);
            });
        }
        sent.await();
        return received.await();
    }

    /** The sum {@link #buffered} returns for {@code n} messages. */
    public static long bufferedExpected(int n) {
        long full = n / 1024;
        long rest = n % 1024;
        return full * (1023L * 1024 / 2) + rest * (rest - 1) / 2;
    }

    // =====================================================================================
    // select
    // =====================================================================================

    /**
     * Two senders send {@code n / 2} values each (value of message i: {@code i & 1023}) on
     * their own unbuffered channel; the caller receives all {@code n} with a select over both
     * and checks that each case fired {@code n / 2} times.
     *
     * @return the sum received; {@link #bufferedExpected}{@code (n / 2) * 2}
     */
    public static long select(BenchChan.Impl impl, int n) {
        if (n % 2 != 0) {
            throw new IllegalArgumentException("n must be even");
        }
        BenchChan<Integer> a = impl.make(0);
        BenchChan<Integer> b = impl.make(0);
        BenchChan.Select2<Integer> sel = impl.select2(a, b);
        Join sent = new Join(2);
        int half = n / 2;
        Spawner s = impl.spawner();
        s.spawn(() -> {
            for (int i = 0; i < half; i++) {
                a.send(BOXES[i & 1023]);
            }
            sent.complete(0);
        });
        s.spawn(() -> {
            for (int i = 0; i < half; i++) {
                b.send(BOXES[i & 1023]);
            }
            sent.complete(0);
        });
        long sum = 0;
        int fromA = 0;
        int fromB = 0;
        for (int i = 0; i < n; i++) {
            int fired = sel.select();
            Integer v = sel.value();
            if (fired == 0) {
                fromA++;
            } else if (fired == 1) {
                fromB++;
            } else {
                throw new AssertionError("select: case " + fired + " fired");
            }
            sum += v;
        }
        sent.await();
        if (fromA != half || fromB != half) {
            throw new AssertionError("select: " + fromA + " from a and " + fromB + " from b, expected " + half + " each");
        }
        return sum;
    }

    public static long selectExpected(int n) {
        return 2 * bufferedExpected(n / 2);
    }

    // =====================================================================================
    // sieve
    // =====================================================================================

    /**
     * Go's concurrent prime sieve: a generator sends 2, 3, 4, ... on an unbuffered channel; the
     * caller takes a prime from the head of the chain and puts a filter goroutine for it behind,
     * {@code primes} times. The generator stops after {@code last} and sends the sentinel 0,
     * which every filter forwards before it ends, so the chain drains and every goroutine ends.
     *
     * @return the sum of the primes received; checks that the last one is {@code last} and that
     *     only the sentinel follows it
     */
    public static long sieve(BenchChan.Impl impl, int primes, int last) {
        Spawner s = impl.spawner();
        BenchChan<Integer> first = impl.make(0);
        s.spawn(() -> {
            for (int i = 2; i <= last; i++) {
                first.send(BOXES[i]);
            }
            first.send(BOXES[0]);
        });
        BenchChan<Integer> ch = first;
        long sum = 0;
        int prime = 0;
        for (int i = 0; i < primes; i++) {
            prime = ch.recv();
            if (prime == 0) {
                throw new AssertionError("sieve: only " + i + " primes up to " + last);
            }
            sum += prime;
            BenchChan<Integer> in = ch;
            BenchChan<Integer> out = impl.make(0);
            int p = prime;
            s.spawn(() -> filter(in, out, p));
            ch = out;
        }
        if (prime != last) {
            throw new AssertionError("sieve: prime #" + primes + " is " + prime + ", expected " + last);
        }
        int end = ch.recv();
        if (end != 0) {
            throw new AssertionError("sieve: " + end + " came after prime #" + primes + " (" + last + ")");
        }
        return sum;
    }

    private static void filter(BenchChan<Integer> in, BenchChan<Integer> out, int p) {
        while (true) {
            Integer v = in.recv();
            int x = v;
            if (x == 0) {
                out.send(v);
                return;
            }
            if (x % p != 0) {
                out.send(v);
            }
        }
    }

    /** The sum of the first {@code primes} primes, sequentially. */
    public static long sieveExpected(int primes) {
        long sum = 0;
        int found = 0;
        for (int n = 2; found < primes; n++) {
            boolean isPrime = true;
            for (int d = 2; (long) d * d <= n; d++) {
                if (n % d == 0) {
                    isPrime = false;
                    break;
                }
            }
            if (isPrime) {
                sum += n;
                found++;
            }
        }
        return sum;
    }

    // =====================================================================================
    // threadring
    // =====================================================================================

    /** The token passed around the ring (one object, so that no hop allocates). */
    static final class Token {
        int left;

        Token(int left) {
            this.left = left;
        }
    }

    /**
     * The benchmarks game's threadring: {@code size} goroutines (ids 1..size) in a ring of
     * unbuffered channels; the caller gives goroutine 1 a token worth {@code hops}; each one
     * passes it on, one less, and the one that receives 0 is the answer. It then sends a stop
     * token around the ring and waits for it to come back, so every goroutine ends.
     *
     * @return the id of the goroutine that received 0 ({@link #threadringExpected})
     */
    public static long threadring(BenchChan.Impl impl, int size, int hops) {
        Spawner s = impl.spawner();
        @SuppressWarnings("unchecked")
        BenchChan<Token>[] ring = new BenchChan[size];
        for (int k = 0; k < size; k++) {
            ring[k] = impl.make(0);
        }
        Join done = new Join(1);
        for (int k = 0; k < size; k++) {
            int id = k + 1;
            BenchChan<Token> in = ring[k];
            BenchChan<Token> out = ring[(k + 1) % size];
            s.spawn(() -> {
                while (true) {
                    Token t = in.recv();
                    if (t.left < 0) {
                        out.send(t); // the stop token
                        return;
                    }
                    if (t.left == 0) {
                        t.left = -1;
                        out.send(t);
                        in.recv(); // the stop token, back round the ring
                        done.complete(id);
                        return;
                    }
                    t.left--;
                    out.send(t);
                }
            });
        }
        ring[0].send(new Token(hops));
        return done.await();
    }

    public static long threadringExpected(int size, int hops) {
        return hops % size + 1;
    }
}
